/**
 * The saved records' SQL (customers and products: rows of one account and mode, soft-deleted), parameters bound by
 * the driver. Column names come from the services' own field maps, never from a request. Services call these
 * functions and never write SQL on these tables themselves.
 */
import type { EntityManager } from '@cfdi/db';
import {
  keysetCount,
  keysetPage,
  type Conditions,
  type KeysetList,
  type Page,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { Tenant } from '../scope';
import { anyRow, firstRow } from '../sql';

export type RecordTableName = 'customers' | 'products';

/** The live record of the tenant with this id. */
export async function selectLiveRecord<Row>(
  em: EntityManager,
  scope: Tenant,
  table: RecordTableName,
  id: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    em,
    `select * from ${table} where id = ? and account_id = ? and livemode = ? and deleted_at is null`,
    [id, scope.accountId, scope.livemode],
  );
}

/** The live records of the tenant among `ids`. */
export function selectLiveRecords<Row>(
  em: EntityManager,
  scope: Tenant,
  table: RecordTableName,
  ids: string[],
): Promise<Row[]> {
  return em.execute(
    `select * from ${table} where id = any(?::text[]) and account_id = ? and livemode = ? and deleted_at is null`,
    [ids, scope.accountId, scope.livemode],
  );
}

export async function insertRecordRow<Row>(
  em: EntityManager,
  scope: Tenant,
  table: RecordTableName,
  id: string,
  columns: Record<string, unknown>,
): Promise<Row> {
  const row = { id, account_id: scope.accountId, livemode: scope.livemode, ...columns };
  const names = Object.keys(row);
  const rows: Row[] = await em.execute(
    `insert into ${table} (${names.join(', ')}) values (${names.map(() => '?').join(', ')}) returning *`,
    Object.values(row),
  );
  return rows[0]!;
}

/** Sets the columns of a live record and returns it; undefined when it is absent or deleted. */
export async function updateLiveRecord<Row>(
  em: EntityManager,
  scope: Tenant,
  table: RecordTableName,
  id: string,
  columns: Record<string, unknown>,
): Promise<Row | undefined> {
  const names = Object.keys(columns);
  return firstRow<Row>(
    em,
    `update ${table} set ${names.map((n) => `${n} = ?`).join(', ')}${names.length ? ', ' : ''}updated_at = now()
      where id = ? and account_id = ? and livemode = ? and deleted_at is null returning *`,
    [...names.map((n) => columns[n]), id, scope.accountId, scope.livemode],
  );
}

const recordList = (scope: Tenant, table: RecordTableName, noun: string, where: Conditions): KeysetList => ({
  select: `select * from ${table}`,
  table,
  scope,
  where: where.add('deleted_at is null'),
  noun,
});

/** A page of the tenant's live records matching `where`, newest first. */
export function recordKeysetPage<Row>(
  em: EntityManager,
  scope: Tenant,
  table: { table: RecordTableName; noun: string },
  where: Conditions,
  page: PageRequest,
): Promise<Page<Row>> {
  return keysetPage<Row>(em, recordList(scope, table.table, table.noun, where), page);
}

/** How many live records match `where` (capped, see COUNT_CAP). */
export function recordKeysetCount(
  em: EntityManager,
  scope: Tenant,
  table: { table: RecordTableName; noun: string },
  where: Conditions,
): Promise<RowCount> {
  return keysetCount(em, recordList(scope, table.table, table.noun, where));
}

/** Whether another live product of the tenant has this SKU. */
export async function skuTakenByAnother(
  em: EntityManager,
  scope: Tenant,
  sku: string,
  id: string,
): Promise<boolean> {
  return anyRow(
    em,
    'select 1 from products where account_id = ? and livemode = ? and sku = ? and id <> ? and deleted_at is null',
    [scope.accountId, scope.livemode, sku, id],
  );
}

/** The live customer's e-mail settings (a deleted customer receives nothing more). */
export async function selectCustomerContact(
  em: EntityManager,
  customerId: string,
): Promise<{ emails: string[]; locale: 'es' | 'en'; auto_email: boolean | null } | undefined> {
  return firstRow<{ emails: string[]; locale: 'es' | 'en'; auto_email: boolean | null }>(
    em,
    'select emails, locale, auto_email from customers where id = ? and deleted_at is null',
    [customerId],
  );
}
