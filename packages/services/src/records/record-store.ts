import type { CatalogLookup } from '@cfdi/cfdi';
import { newId, type EntityManager, type IdPrefix } from '@cfdi/db';
import { AppError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors';
import {
  listAnswer,
  type Conditions,
  type ListAnswer,
  type Page,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { Scope } from '../scope';
import type { ProblemCodeWithStatus } from '../problem-codes';
import {
  insertRecordRow,
  recordKeysetCount,
  recordKeysetPage,
  selectLiveRecord,
  selectLiveRecords,
  updateLiveRecord,
  type RecordTableName,
} from './record-repository';

/** A table of saved records (customers, products): rows of one account and mode, soft-deleted. */
export interface RecordTable {
  table: RecordTableName;
  /** The record's name in answers: `No ${noun} with id …`. */
  noun: string;
}

/**
 * Customers and products belong to the whole account, not to a merchant, so a key restricted to some merchants
 * reaches none of them: their reads answer 404 as for an unknown id (a restricted key learns nothing of the
 * account's records), and creating one is 403, as for merchants.
 */
export function assertMayCreate(scope: Scope, plural: string): void {
  if (scope.merchantIds)
    throw new ForbiddenError(
      `This API key is restricted to some merchants; ${plural} belong to the whole account, so they need an unrestricted key.`,
    );
}

/** What saving a record needs: the database and the SAT catalogs its fields are checked against. */
export interface RecordContext {
  em: EntityManager;
  catalogs: { index(): Promise<unknown>; lookup: CatalogLookup };
}

/** The live record of the scope, or 404 (another account's or mode's, a deleted one, or any for a restricted key). */
export async function findRecord<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  id: string,
): Promise<Row> {
  const row = scope.merchantIds ? undefined : await selectLiveRecord<Row>(em, scope, store.table, id);
  if (!row) throw new NotFoundError(store.noun, id);
  return row;
}

/** The live records of the scope among `ids`, by id (the missing ones are absent). */
export async function findRecords<Row extends { id: string }>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  ids: string[],
): Promise<Map<string, Row>> {
  if (scope.merchantIds || !ids.length) return new Map();
  const rows = await selectLiveRecords<Row>(em, scope, store.table, ids);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * One kind of saved record declared once (customers, products): its table, id prefix, view, columns, list filters
 * and fiscal check. `recordOperations` makes its create, retrieve, update, delete, list and count from it.
 */
export interface RecordKind<Row, View, Create, Query> extends RecordTable {
  object: string;
  plural: string;
  idPrefix: IdPrefix;
  /** Fields a create fills in when the request leaves them out. */
  defaults: Partial<Create>;
  toView(row: Row): View;
  /** The columns of the fields a create or update sets (names from the kind's own map, never from a request). */
  columnsOf(input: Partial<Create>): Record<string, unknown>;
  conditions(query: Query): Conditions;
  /** The fiscal rules on the record as it will be saved (a PATCH is checked merged with what it changes). */
  check(ctx: RecordContext, record: Create): void | Promise<void>;
  /** Wraps a save (a product's SKU must stay unique); by default the save itself. */
  guardSave?(
    em: EntityManager,
    scope: Scope,
    input: Partial<Create>,
    id: string,
    save: () => Promise<Row>,
  ): Promise<Row>;
}

export function recordOperations<Row, View, Create, Query>(kind: RecordKind<Row, View, Create, Query>) {
  const guard = (
    em: EntityManager,
    scope: Scope,
    input: Partial<Create>,
    id: string,
    save: () => Promise<Row>,
  ) => (kind.guardSave ? kind.guardSave(em, scope, input, id, save) : save());
  const find = (em: EntityManager, scope: Scope, id: string) => findRecord<Row>(em, scope, kind, id);
  return {
    async create(ctx: RecordContext, scope: Scope, input: Create): Promise<View> {
      assertMayCreate(scope, kind.plural);
      const record = { ...kind.defaults, ...input };
      await kind.check(ctx, record);
      const id = newId(kind.idPrefix);
      const row = await guard(ctx.em, scope, input, id, () =>
        insertRecordRow<Row>(ctx.em, scope, kind.table, id, kind.columnsOf(record)),
      );
      return kind.toView(row);
    },
    /** The live record of the scope as a row (404 otherwise): for documents made from it. */
    find,
    async retrieve(ctx: RecordContext, scope: Scope, id: string): Promise<View> {
      return kind.toView(await find(ctx.em, scope, id));
    },
    async update(ctx: RecordContext, scope: Scope, id: string, input: Partial<Create>): Promise<View> {
      const current = kind.toView(await find(ctx.em, scope, id));
      await kind.check(ctx, { ...current, ...input } as Create);
      const row = await guard(ctx.em, scope, input, id, () =>
        updateRecord<Row>(ctx.em, scope, kind, id, kind.columnsOf(input)),
      );
      return kind.toView(row);
    },
    remove(ctx: RecordContext, scope: Scope, id: string) {
      return deleteRecord(ctx.em, scope, kind, kind.object, id);
    },
    /** `offset`: the console's numbered pages (the API pages by `startingAfter` only). */
    async list(
      ctx: RecordContext,
      scope: Scope,
      query: Query & PageRequest,
      offset = 0,
    ): Promise<ListAnswer<View>> {
      const page = await listRecords<Row>(ctx.em, scope, kind, kind.conditions(query), {
        limit: query.limit,
        startingAfter: query.startingAfter,
        offset,
      });
      return listAnswer(page, kind.toView);
    },
    /** How many records the list query finds (capped, see COUNT_CAP): the console's count. */
    count(ctx: RecordContext, scope: Scope, query: Query): Promise<RowCount> {
      return countRecords(ctx.em, scope, kind, kind.conditions(query));
    },
  };
}

/**
 * Sets the given columns (names from the services' own field maps, never from a request) of a live record; 404 when
 * it was deleted in between. Callers read it with findRecord first, which applies the restricted-key rule.
 */
async function updateRecord<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  id: string,
  columns: Record<string, unknown>,
): Promise<Row> {
  const row = await updateLiveRecord<Row>(em, scope, store.table, id, columns);
  if (!row) throw new NotFoundError(store.noun, id);
  return row;
}

/** Soft delete: the row stays for the documents that name it; the record leaves reads, lists and new documents. */
async function deleteRecord<Name extends string>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  object: Name,
  id: string,
): Promise<{ id: string; object: Name; deleted: true }> {
  await findRecord(em, scope, store, id);
  await updateRecord(em, scope, store, id, { deleted_at: new Date() });
  return { id, object, deleted: true };
}

/** A page of live records, newest first; a restricted key's is always empty (see assertMayCreate). */
function listRecords<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  where: Conditions,
  page: PageRequest,
): Promise<Page<Row>> {
  if (scope.merchantIds) return Promise.resolve({ rows: [], hasMore: false });
  return recordKeysetPage<Row>(em, scope, store, where, page);
}

/** How many live records the list holds (capped, see COUNT_CAP). */
function countRecords(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  where: Conditions,
): Promise<RowCount> {
  if (scope.merchantIds) return Promise.resolve({ total: 0, capped: false });
  return recordKeysetCount(em, scope, store, where);
}

/** `%text%` for `ilike`, with the pattern characters of the text matched literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Throws the fiscal problems of a record as one 400, each on its field. */
export function rejectIssues(what: string, issues: FieldError[]): void {
  if (issues.length)
    throw new ValidationError(
      `The ${what} is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );
}

/** A 409 on one field (a SKU another product of the account and mode has). */
export class FieldConflictError extends AppError {
  constructor(code: ProblemCodeWithStatus<409>, path: string, message: string) {
    super(409, code, 'Conflict', message, { errors: [{ path, message }] });
  }
}
