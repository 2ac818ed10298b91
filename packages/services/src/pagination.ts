import type { EntityManager, IdPrefix } from '@cfdi/db';
import { ValidationError } from './errors';

/** A list request: up to `limit` items after `startingAfter`, the last id of the previous page. */
export interface PageRequest {
  limit: number;
  startingAfter?: string;
  /** Rows skipped first (the console's numbered pages; the API pages by `startingAfter` only). */
  offset?: number;
}

/**
 * Console lists count their rows up to this many: above it the count reads "more than 10,000" (counting every row
 * of a large filtered table would take longer than the page itself).
 */
export const COUNT_CAP = 10_000;

/** How many rows a list has, counted up to COUNT_CAP (`capped`: there are more). */
export interface RowCount {
  total: number;
  capped: boolean;
}

/** A numbered page of a console list: `limit` rows from `offset`. */
export interface ListWindow {
  limit: number;
  offset: number;
}

/** One numbered page of rows and the list's count. */
export interface CountedPage<Row> extends RowCount {
  rows: Row[];
}

/** Counts the rows `sql` (a select, with its parameters) returns, up to COUNT_CAP. */
export async function countRows(em: EntityManager, sql: string, params: unknown[]): Promise<RowCount> {
  const found: { n: number }[] = await em.execute(
    `select count(*)::int as n from (${sql} limit ${COUNT_CAP + 1}) counted`,
    params,
  );
  const n = found[0]?.n ?? 0;
  return { total: Math.min(n, COUNT_CAP), capped: n > COUNT_CAP };
}

/** The window's rows of `sql` (a select ending with its `order by`) and the count of all its rows. */
export async function countedPage<Row>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  window: ListWindow,
): Promise<CountedPage<Row>> {
  const rows: Row[] = await em.execute(`${sql} limit ? offset ?`, [...params, window.limit, window.offset]);
  // The first page shorter than the window is the whole list: no count query.
  if (window.offset === 0 && rows.length < window.limit) return { rows, total: rows.length, capped: false };
  return { rows, ...(await countRows(em, sql, params)) };
}

/** One page of rows, newest first; `hasMore` says a next page exists. */
export interface Page<Row> {
  rows: Row[];
  hasMore: boolean;
}

/** The API's answer for a list: `{object: "list", data, has_more}`. */
export interface ListAnswer<Item> {
  object: 'list';
  data: Item[];
  has_more: boolean;
}

/** SQL conditions joined by `and`, each with its parameters in order. */
export class Conditions {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  add(clause: string, ...values: unknown[]): this {
    this.clauses.push(clause);
    this.params.push(...values);
    return this;
  }
}

export interface KeysetList {
  /** The query up to its `where`: `select * from events`, or a select with joins. */
  select: string;
  /** The table listed: `starting_after` must name one of its rows in the caller's account and mode. */
  table: string;
  /** The table's alias in `select` when it joins (`m` for `from merchants m`). */
  alias?: string;
  /** The column sorted on, newest first: `id` (ids sort by creation time) unless the table has its own sequence. */
  key?: 'id' | 'seq';
  /** The caller's account and mode: the list holds only their rows, and so must the cursor. */
  scope: { accountId: string; livemode: boolean };
  /** The list's other conditions (filters, a key's merchants, …). */
  where?: Conditions;
  /**
   * The listed rows' id prefix when the table holds several (documents: `inv`, `pay`, `nom`): the id is bounded to
   * the prefix's range, so a walk of the primary key newest-first starts at the prefix's newest row instead of
   * discarding every id of the prefixes that sort above it.
   */
  idPrefix?: IdPrefix;
  /** Column values the cursor row must have too (a document's type). */
  cursorAlso?: Record<string, string>;
  /** The item's name in the 400: `No ${noun} "…" to start after.` */
  noun: string;
}

/**
 * Keyset pagination: newest first by `key`, one row more than `limit` to know `has_more`, and a `starting_after`
 * that must be a row of the caller's account and mode (a 400 on `/starting_after` otherwise, never a silent page).
 */
export async function keysetPage<Row>(
  em: EntityManager,
  list: KeysetList,
  page: PageRequest,
): Promise<Page<Row>> {
  const column = (name: string) => (list.alias ? `${list.alias}.${name}` : name);
  const key = list.key ?? 'id';
  const where = keysetWhere(list);
  if (page.startingAfter) where.add(`${column(key)} < ?`, await cursorKey(em, list, key, page.startingAfter));
  const rows: Row[] = await em.execute(
    `${list.select} where ${where.clauses.join(' and ')} order by ${column(key)} desc limit ?${page.offset ? ' offset ?' : ''}`,
    [...where.params, page.limit + 1, ...(page.offset ? [page.offset] : [])],
  );
  return { rows: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** How many rows the list holds (capped, see COUNT_CAP), for a console page's count. */
export function keysetCount(em: EntityManager, list: KeysetList): Promise<RowCount> {
  const where = keysetWhere(list);
  return countRows(em, `${list.select} where ${where.clauses.join(' and ')}`, where.params);
}

/** The list's conditions: the scope, the id prefix and its own filters. */
function keysetWhere(list: KeysetList): Conditions {
  const column = (name: string) => (list.alias ? `${list.alias}.${name}` : name);
  const where = new Conditions()
    .add(`${column('account_id')} = ?`, list.scope.accountId)
    .add(`${column('livemode')} = ?`, list.scope.livemode);
  // `_` then base32: every id of the prefix sorts between `inv_` and `inv_~` (the key column is collate "C").
  if (list.idPrefix)
    where.add(`${column('id')} > ? and ${column('id')} < ?`, `${list.idPrefix}_`, `${list.idPrefix}_~`);
  if (list.where?.clauses.length) where.add(list.where.clauses.join(' and '), ...list.where.params);
  return where;
}

/** The sort key of the cursor row, which must belong to the caller (a deleted row still counts: its page goes on). */
async function cursorKey(em: EntityManager, list: KeysetList, key: string, id: string): Promise<unknown> {
  const also = Object.entries(list.cursorAlso ?? {});
  const found: { cursor_key: unknown }[] = await em.execute(
    `select ${key} as cursor_key from ${list.table} where id = ? and account_id = ? and livemode = ?` +
      also.map(([name]) => ` and ${name} = ?`).join(''),
    [id, list.scope.accountId, list.scope.livemode, ...also.map(([, value]) => value)],
  );
  if (!found[0]) throw ValidationError.field('/starting_after', `No ${list.noun} "${id}" to start after.`);
  return found[0].cursor_key;
}

/** A page as the API answers it, each row through the view. */
export function listAnswer<Row, Item>(page: Page<Row>, view: (row: Row) => Item): ListAnswer<Item> {
  return { object: 'list', data: page.rows.map((row) => view(row)), has_more: page.hasMore };
}
