import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import { getStampingMerchant, type MerchantForStamping } from '../merchants';
import type { Scope } from '../scope';

/**
 * The merchant a new document is issued by: in scope (404), allowed for the key (403), not deleted, and with a
 * CSD that can seal today (400 on `/merchantId` otherwise, before any timbre is reserved).
 */
export async function resolveStampingMerchant(
  em: EntityManager,
  scope: Scope,
  merchantId: string,
  now: Date = new Date(),
): Promise<MerchantForStamping> {
  const merchant = await getStampingMerchant(em, scope, merchantId);
  if (!merchant.hasCsd) {
    throw ValidationError.field(
      '/merchantId',
      `Merchant ${merchantId} has no CSD; upload one with POST /v1/merchants/${merchantId}/csd before stamping.`,
    );
  }
  if (merchant.csdValidTo && new Date(merchant.csdValidTo) < now) {
    throw ValidationError.field(
      '/merchantId',
      `The CSD of merchant ${merchantId} expired on ${merchant.csdValidTo}; upload a current one with PUT /v1/merchants/${merchantId}/csd.`,
    );
  }
  return merchant;
}
