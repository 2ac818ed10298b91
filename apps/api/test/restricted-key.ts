import { createApiKey } from '@cfdi/services';
import type { ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';

/**
 * The secret of a test key restricted to a second merchant of the account (a key's merchants must exist: see
 * createApiKey), so that the account's first merchant is outside it.
 */
export async function keyForAnotherMerchant(
  api: ApiHarness,
  account: { accountId: string; testKey: string },
): Promise<string> {
  const serie = `R${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  const merchant = await newMerchant(api, account.testKey, { ...EKU, serie });
  const { secret } = await createApiKey(api.orm.em.fork(), {
    accountId: account.accountId,
    livemode: false,
    merchantIds: [merchant.id],
  });
  return secret;
}
