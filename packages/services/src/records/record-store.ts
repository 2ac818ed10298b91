import type { EntityManager } from '@cfdi/db';
import { AppError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors';
import {
  Conditions,
  keysetCount,
  keysetPage,
  type KeysetList,
  type Page,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { Scope } from '../scope';
import type { ProblemCodeWithStatus } from '../problem-codes';

/** A table of saved records (customers, products): rows of one account and mode, soft-deleted. */
export interface RecordTable {
  table: 'customers' | 'products';
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

/** The live record of the scope, or 404 (another account's or mode's, a deleted one, or any for a restricted key). */
export async function findRecord<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  id: string,
): Promise<Row> {
  const rows: Row[] = scope.merchantIds
    ? []
    : await em.execute(
        `select * from ${store.table} where id = ? and account_id = ? and livemode = ? and deleted_at is null`,
        [id, scope.accountId, scope.livemode],
      );
  if (!rows[0]) throw new NotFoundError(store.noun, id);
  return rows[0];
}

/** The live records of the scope among `ids`, by id (the missing ones are absent). */
export async function findRecords<Row extends { id: string }>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  ids: string[],
): Promise<Map<string, Row>> {
  if (scope.merchantIds || !ids.length) return new Map();
  const rows: Row[] = await em.execute(
    `select * from ${store.table} where id = any(?::text[]) and account_id = ? and livemode = ? and deleted_at is null`,
    [ids, scope.accountId, scope.livemode],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/** Inserts a record of the scope with the given columns (names from the services' own field maps) and returns it. */
export async function insertRecord<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  id: string,
  columns: Record<string, unknown>,
): Promise<Row> {
  const row = { id, account_id: scope.accountId, livemode: scope.livemode, ...columns };
  const names = Object.keys(row);
  const rows: Row[] = await em.execute(
    `insert into ${store.table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')}) returning *`,
    Object.values(row),
  );
  return rows[0]!;
}

/**
 * Sets the given columns (names from the services' own field maps, never from a request) of a live record; 404 when
 * it was deleted in between. Callers read it with findRecord first, which applies the restricted-key rule.
 */
export async function updateRecord<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  id: string,
  columns: Record<string, unknown>,
): Promise<Row> {
  const names = Object.keys(columns);
  const rows: Row[] = await em.execute(
    `update ${store.table} set ${names.map((n) => `${n} = ?`).join(', ')}${names.length ? ', ' : ''}updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning *`,
    [...names.map((n) => columns[n]), id, scope.accountId, scope.livemode],
  );
  if (!rows[0]) throw new NotFoundError(store.noun, id);
  return rows[0];
}

/** Soft delete: the row stays for the documents that name it; the record leaves reads, lists and new documents. */
export async function deleteRecord<Name extends string>(
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
export async function listRecords<Row>(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  where: Conditions,
  page: PageRequest,
): Promise<Page<Row>> {
  if (scope.merchantIds) return { rows: [], hasMore: false };
  return keysetPage<Row>(em, recordList(scope, store, where), page);
}

/** How many live records the list holds (capped, see COUNT_CAP). */
export async function countRecords(
  em: EntityManager,
  scope: Scope,
  store: RecordTable,
  where: Conditions,
): Promise<RowCount> {
  if (scope.merchantIds) return { total: 0, capped: false };
  return keysetCount(em, recordList(scope, store, where));
}

const recordList = (scope: Scope, store: RecordTable, where: Conditions): KeysetList => ({
  select: `select * from ${store.table}`,
  table: store.table,
  scope,
  where: where.add('deleted_at is null'),
  noun: store.noun,
});

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
