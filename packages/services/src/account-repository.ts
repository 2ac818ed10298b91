/**
 * The accounts aggregate's SQL (accounts and their API keys), parameters bound by the driver. Services call these
 * functions and never write SQL on these tables themselves.
 */
import { newId, type EntityManager } from '@cfdi/db';
import { countedPage, type CountedPage, type ListWindow } from './pagination';
import { anyRow, firstRow } from './sql';

export async function accountExists(em: EntityManager, accountId: string): Promise<boolean> {
  return anyRow(em, 'select id from accounts where id = ?', [accountId]);
}

/** Locks the account's row until the transaction ends: serialises changes that count something of the account. */
export async function lockAccount(em: EntityManager, accountId: string): Promise<void> {
  await em.execute('select id from accounts where id = ? for update', [accountId]);
}

export async function insertAccount(
  em: EntityManager,
  row: { id: string; name: string; rate_limit_per_minute: number | null; monthly_cap: number | null },
): Promise<void> {
  await em.execute(
    'insert into accounts (id, name, rate_limit_per_minute, monthly_cap) values (?, ?, ?, ?)',
    [row.id, row.name, row.rate_limit_per_minute, row.monthly_cap],
  );
}

/** Sets the limits given (undefined: unchanged); false when the account does not exist. */
export async function updateAccountLimitColumns(
  em: EntityManager,
  accountId: string,
  limits: { rate_limit_per_minute?: number | null; monthly_cap?: number | null },
): Promise<boolean> {
  const sets: string[] = [];
  const params: unknown[] = [];
  if (limits.rate_limit_per_minute !== undefined) {
    sets.push('rate_limit_per_minute = ?');
    params.push(limits.rate_limit_per_minute);
  }
  if (limits.monthly_cap !== undefined) {
    sets.push('monthly_cap = ?');
    params.push(limits.monthly_cap);
  }
  return anyRow(em, `update accounts set ${sets.join(', ')} where id = ? returning id`, [
    ...params,
    accountId,
  ]);
}

/** The newest `limit` accounts and the ones named, by name then id (the console's account choices). */
export function selectAccountChoices(
  em: EntityManager,
  limit: number,
  alsoIds: string[],
): Promise<{ id: string; name: string }[]> {
  return em.execute(
    `select id, name from accounts
      where id in (select id from accounts order by id desc limit ?) or id = any(?)
      order by lower(name), id`,
    [limit, alsoIds],
  );
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  livemode: boolean;
  secret_hash: string;
  display_prefix: string;
  merchant_ids: string[] | null;
  note: string | null;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

export async function insertApiKey(
  em: EntityManager,
  row: Omit<ApiKeyRow, 'id' | 'created_at' | 'revoked_at'>,
): Promise<ApiKeyRow> {
  const merchantIds = row.merchant_ids;
  // An array binding is one PostgreSQL array parameter (see @cfdi/db, orm.ts).
  const rows: ApiKeyRow[] = await em.execute(
    `insert into api_keys (id, account_id, livemode, secret_hash, display_prefix, merchant_ids, note)
     values (?, ?, ?, ?, ?, ${merchantIds ? '?::text[]' : 'null'}, ?) returning *`,
    [
      newId('key'),
      row.account_id,
      row.livemode,
      row.secret_hash,
      row.display_prefix,
      ...(merchantIds ? [merchantIds] : []),
      row.note,
    ],
  );
  return rows[0]!;
}

export function selectApiKeys(em: EntityManager, accountId: string): Promise<ApiKeyRow[]> {
  return em.execute('select * from api_keys where account_id = ? order by id desc', [accountId]);
}

export function apiKeyCountedPage(
  em: EntityManager,
  scope: { accountId: string; livemode: boolean },
  window: ListWindow,
): Promise<CountedPage<ApiKeyRow>> {
  return countedPage<ApiKeyRow>(
    em,
    'select * from api_keys where account_id = ? and livemode = ? order by id desc',
    [scope.accountId, scope.livemode],
    window,
  );
}

/** Revokes the key (idempotent) and returns it; undefined when it is not one of the account's. */
export async function revokeApiKeyRow(
  em: EntityManager,
  accountId: string,
  keyId: string,
): Promise<ApiKeyRow | undefined> {
  return firstRow<ApiKeyRow>(
    em,
    'update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ? and account_id = ? returning *',
    [keyId, accountId],
  );
}

export interface KeyScopeRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_ids: string[] | null;
  rate_limit_per_minute: number | null;
}

/** The unrevoked key with this secret hash and its account's rate limit. */
export async function selectKeyByHash(
  em: EntityManager,
  secretHash: string,
): Promise<KeyScopeRow | undefined> {
  return firstRow<KeyScopeRow>(
    em,
    `select k.id, k.account_id, k.livemode, k.merchant_ids, a.rate_limit_per_minute
         from api_keys k join accounts a on a.id = k.account_id
        where k.secret_hash = ? and k.revoked_at is null`,
    [secretHash],
  );
}
