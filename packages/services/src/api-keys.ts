import { isoTimestamp, isoTimestampOrNull } from './time';
import { newId, type EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError, ValidationError } from './errors';
import type { Scope } from './scope';
import { generateKeySecret, hashKeySecret } from './secrets';
import { countedPage, type CountedPage, type ListWindow } from './pagination';

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

export const API_KEY_NOTE_MAX = 200;

export interface NewApiKey {
  accountId: string;
  livemode: boolean;
  /** The key's merchants (of the account, in its mode); none or empty: the whole account. */
  merchantIds?: string[] | null;
  note?: string | null;
  /**
   * The limits of whoever makes the key (a console user's mode and merchants): a key never reaches further than its
   * maker. Absent for the platform's own tools (the CLI, a new account's first keys).
   */
  maker?: { livemode: boolean | null; merchantIds: string[] | null };
}

/**
 * What every new key must satisfy, whichever face creates it: its merchants are live merchants of the account in the
 * key's mode (404 naming the first that is not), and a maker limited to a mode or to merchants makes keys within them
 * (403).
 */
async function checkNewKeyLimits(em: EntityManager, input: NewApiKey, merchantIds: string[] | null) {
  const { maker } = input;
  if (maker && maker.livemode !== null && maker.livemode !== input.livemode)
    throw new ForbiddenError(`You work in ${maker.livemode ? 'live' : 'test'} mode only.`);
  if (maker?.merchantIds) {
    const allowed = maker.merchantIds;
    if (!merchantIds || merchantIds.some((id) => !allowed.includes(id)))
      throw new ForbiddenError(`You are limited to merchants ${allowed.join(', ')}: the key must be too.`);
  }
  if (!merchantIds) return;
  const found: { id: string }[] = await em.execute(
    'select id from merchants where account_id = ? and livemode = ? and id = any(?) and deleted_at is null',
    [input.accountId, input.livemode, merchantIds],
  );
  const missing = merchantIds.find((id) => !found.some((m) => m.id === id));
  if (missing) throw new NotFoundError('merchant', missing);
}

/** Creates a key within the limits above; the secret is returned here once and only its hash is stored. */
export async function createApiKey(
  em: EntityManager,
  input: NewApiKey,
): Promise<{ key: ApiKeyView; secret: string }> {
  const merchantIds = input.merchantIds?.length ? [...new Set(input.merchantIds)] : null;
  const note = input.note?.trim() || null;
  if (note && note.length > API_KEY_NOTE_MAX)
    throw ValidationError.field('/note', `must have at most ${API_KEY_NOTE_MAX} characters`);
  await checkNewKeyLimits(em, input, merchantIds);
  const secret = generateKeySecret(input.livemode);
  // An array binding is one PostgreSQL array parameter (see @cfdi/db, orm.ts).
  const rows: ApiKeyRow[] = await em.execute(
    `insert into api_keys (id, account_id, livemode, secret_hash, display_prefix, merchant_ids, note)
     values (?, ?, ?, ?, ?, ${merchantIds ? '?::text[]' : 'null'}, ?) returning *`,
    [
      newId('key'),
      input.accountId,
      input.livemode,
      hashKeySecret(secret),
      secret.slice(0, 12),
      ...(merchantIds ? [merchantIds] : []),
      note,
    ],
  );
  return { key: toView(rows[0]!), secret };
}

export async function listApiKeys(em: EntityManager, accountId: string): Promise<ApiKeyView[]> {
  const rows: ApiKeyRow[] = await em.execute('select * from api_keys where account_id = ? order by id desc', [
    accountId,
  ]);
  return rows.map(toView);
}

/** One numbered page of the account's keys in one mode, newest first (the console's keys page). */
export async function apiKeysPage(
  em: EntityManager,
  scope: { accountId: string; livemode: boolean },
  window: ListWindow,
): Promise<CountedPage<ApiKeyView>> {
  const page = await countedPage<ApiKeyRow>(
    em,
    'select * from api_keys where account_id = ? and livemode = ? order by id desc',
    [scope.accountId, scope.livemode],
    window,
  );
  return { ...page, rows: page.rows.map(toView) };
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
  const rows: {
    id: string;
    account_id: string;
    livemode: boolean;
    merchant_ids: string[] | null;
    rate_limit_per_minute: number | null;
  }[] = await em.execute(
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
