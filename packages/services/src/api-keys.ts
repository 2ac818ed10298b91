import { isoTimestamp, isoTimestampOrNull } from './time';
import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError, ValidationError } from './errors';
import type { Scope } from './scope';
import { generateKeySecret, hashKeySecret } from './secrets';
import type { CountedPage, ListWindow } from './pagination';
import {
  apiKeyCountedPage,
  insertApiKey,
  revokeApiKeyRow,
  selectApiKeys,
  selectKeyByHash,
  type ApiKeyRow,
} from './account-repository';
import { liveMerchantIdsAmong } from './merchants/merchant-repository';

export interface ApiKeyView {
  id: string;
  livemode: boolean;
  displayPrefix: string;
  merchantIds: string[] | null;
  note: string | null;
  revokedAt: string | null;
  createdAt: string;
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
  const found = await liveMerchantIdsAmong(em, input, merchantIds);
  const missing = merchantIds.find((id) => !found.includes(id));
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
  const row = await insertApiKey(em, {
    account_id: input.accountId,
    livemode: input.livemode,
    secret_hash: hashKeySecret(secret),
    display_prefix: secret.slice(0, 12),
    merchant_ids: merchantIds ?? null,
    note,
  });
  return { key: toView(row), secret };
}

export async function listApiKeys(em: EntityManager, accountId: string): Promise<ApiKeyView[]> {
  return (await selectApiKeys(em, accountId)).map(toView);
}

/** One numbered page of the account's keys in one mode, newest first (the console's keys page). */
export async function apiKeysPage(
  em: EntityManager,
  scope: { accountId: string; livemode: boolean },
  window: ListWindow,
): Promise<CountedPage<ApiKeyView>> {
  const page = await apiKeyCountedPage(em, scope, window);
  return { ...page, rows: page.rows.map(toView) };
}

export async function revokeApiKey(em: EntityManager, accountId: string, keyId: string): Promise<ApiKeyView> {
  const row = await revokeApiKeyRow(em, accountId, keyId);
  if (!row) throw new NotFoundError('API key', keyId);
  return toView(row);
}

export interface Authenticated extends Scope {
  rateLimitPerMinute: number | null;
}

/** Resolves a bearer secret to its scope, or null for unknown, revoked or malformed keys. */
export async function authenticateKey(em: EntityManager, secret: string): Promise<Authenticated | null> {
  if (!/^sk_(test|live)_[0-9A-Za-z]{20,100}$/.test(secret)) return null;
  const row = await selectKeyByHash(em, hashKeySecret(secret));
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
