import { isoTimestamp, isoTimestampOrNull } from './time';
import { newId, type EntityManager } from '@cfdi/db';
import { NotFoundError } from './errors';
import type { Scope } from './scope';
import { generateKeySecret, hashKeySecret } from './secrets';

export interface ApiKeyView {
  id: string;
  livemode: boolean;
  displayPrefix: string;
  merchantIds: string[] | null;
  note: string | null;
  revokedAt: string | null;
  createdAt: string;
}

interface ApiKeyRow {
  id: string;
  livemode: boolean;
  display_prefix: string;
  merchant_ids: string[] | null;
  note: string | null;
  revoked_at: Date | string | null;
  created_at: Date | string;
}

const toView = (row: ApiKeyRow): ApiKeyView => ({
  id: row.id,
  livemode: row.livemode,
  displayPrefix: row.display_prefix,
  merchantIds: row.merchant_ids,
  note: row.note,
  revokedAt: isoTimestampOrNull(row.revoked_at),
  createdAt: isoTimestamp(row.created_at),
});

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function createApiKey(
  em: EntityManager,
  input: { accountId: string; livemode: boolean; merchantIds?: string[] | null; note?: string | null },
): Promise<{ key: ApiKeyView; secret: string }> {
  const secret = generateKeySecret(input.livemode);
  const merchantIds = input.merchantIds?.length ? input.merchantIds : null;
  // The query builder expands an array binding into a list, so `array[?]` builds the text[] from it.
  const rows: ApiKeyRow[] = await em.execute(
    `insert into api_keys (id, account_id, livemode, secret_hash, display_prefix, merchant_ids, note)
     values (?, ?, ?, ?, ?, ${merchantIds ? 'array[?]::text[]' : 'null'}, ?) returning *`,
    [newId('key'), input.accountId, input.livemode, hashKeySecret(secret), secret.slice(0, 12),
      ...(merchantIds ? [merchantIds] : []), input.note ?? null],
  );
  return { key: toView(rows[0]!), secret };
}

export async function listApiKeys(em: EntityManager, accountId: string): Promise<ApiKeyView[]> {
  const rows: ApiKeyRow[] = await em.execute('select * from api_keys where account_id = ? order by id desc', [accountId]);
  return rows.map(toView);
}

export async function revokeApiKey(em: EntityManager, accountId: string, keyId: string): Promise<ApiKeyView> {
  const rows: ApiKeyRow[] = await em.execute(
    'update api_keys set revoked_at = coalesce(revoked_at, now()) where id = ? and account_id = ? returning *',
    [keyId, accountId],
  );
  if (!rows[0]) throw new NotFoundError('API key', keyId);
  return toView(rows[0]);
}

export interface Authenticated extends Scope {
  rateLimitPerMinute: number | null;
}

/** Resolves a bearer secret to its scope, or null for unknown, revoked or malformed keys. */
export async function authenticateKey(em: EntityManager, secret: string): Promise<Authenticated | null> {
  if (!/^sk_(test|live)_[0-9A-Za-z]{20,100}$/.test(secret)) return null;
  const rows: { id: string; account_id: string; livemode: boolean; merchant_ids: string[] | null; rate_limit_per_minute: number | null }[] =
    await em.execute(
      `select k.id, k.account_id, k.livemode, k.merchant_ids, a.rate_limit_per_minute
         from api_keys k join accounts a on a.id = k.account_id
        where k.secret_hash = ? and k.revoked_at is null`,
      [hashKeySecret(secret)],
    );
  const row = rows[0];
  // The prefix must agree with the stored mode; a forged prefix on a real secret is not a valid key.
  if (!row || row.livemode !== secret.startsWith('sk_live_')) return null;
  return {
    accountId: row.account_id,
    livemode: row.livemode,
    keyId: row.id,
    merchantIds: row.merchant_ids,
    rateLimitPerMinute: row.rate_limit_per_minute,
  };
}
