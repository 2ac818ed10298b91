import { newId, type EntityManager } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import { openBalance } from './ledger';
import { createApiKey } from './api-keys';
import { NotFoundError, ValidationError } from './errors';
import { accountExists, insertAccount, updateAccountLimitColumns } from './account-repository';

export interface CreatedAccount {
  accountId: string;
  testKey: string;
  liveKey: string;
}

/** Creates an account with one test and one live key, a seeded test balance and an empty live balance. */
/** A rate limit is at least 1 request a minute; a monthly cap at least 0 timbres (null: none). */
function checkLimits(input: { rateLimitPerMinute?: number | null; monthlyCap?: number | null }): void {
  const { rateLimitPerMinute: rate, monthlyCap: cap } = input;
  if (rate !== undefined && rate !== null && (!Number.isSafeInteger(rate) || rate < 1)) {
    throw ValidationError.field(
      '/rateLimitPerMinute',
      `must be a whole number of requests per minute of at least 1 (got ${rate}), or none`,
    );
  }
  if (cap !== undefined && cap !== null && (!Number.isSafeInteger(cap) || cap < 0)) {
    throw ValidationError.field(
      '/monthlyCap',
      `must be a whole number of timbres of at least 0 (got ${cap}), or none`,
    );
  }
}

/** The account exists (operators' commands name it by id): otherwise 404 before anything is read or written. */
export async function requireAccount(em: EntityManager, accountId: string): Promise<void> {
  if (!(await accountExists(em, accountId))) throw new NotFoundError('account', accountId);
}

export async function createAccount(
  em: EntityManager,
  config: Pick<Config, 'testSeedCentavos'>,
  input: { name: string; rateLimitPerMinute?: number | null; monthlyCap?: number | null },
): Promise<CreatedAccount> {
  const name = input.name.trim();
  if (!name || name.length > 200)
    throw ValidationError.field('/name', 'The account name must have 1 to 200 characters.');
  checkLimits(input);
  return em.transactional(async (tx) => {
    const accountId = newId('acct');
    await insertAccount(tx, {
      id: accountId,
      name,
      rate_limit_per_minute: input.rateLimitPerMinute ?? null,
      monthly_cap: input.monthlyCap ?? null,
    });
    await openBalance(tx, { accountId, livemode: false }, config.testSeedCentavos);
    await openBalance(tx, { accountId, livemode: true }, 0);
    const test = await createApiKey(tx, { accountId, livemode: false });
    const live = await createApiKey(tx, { accountId, livemode: true });
    return { accountId, testKey: test.secret, liveKey: live.secret };
  });
}

export async function updateAccountLimits(
  em: EntityManager,
  accountId: string,
  input: { rateLimitPerMinute?: number | null; monthlyCap?: number | null },
): Promise<void> {
  checkLimits(input);
  if (input.rateLimitPerMinute === undefined && input.monthlyCap === undefined)
    throw ValidationError.field('/', 'nothing to change: give a rate limit, a monthly cap, or both');
  const updated = await updateAccountLimitColumns(em, accountId, {
    ...(input.rateLimitPerMinute !== undefined ? { rate_limit_per_minute: input.rateLimitPerMinute } : {}),
    ...(input.monthlyCap !== undefined ? { monthly_cap: input.monthlyCap } : {}),
  });
  if (!updated) throw new NotFoundError('account', accountId);
}
