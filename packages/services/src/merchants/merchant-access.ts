import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError } from '../errors';
import type { Scope } from '../scope';
import { selectMerchant, type MerchantRow } from './merchant-repository';

export interface FindMerchantOptions {
  /** Deleted merchants are 404 unless the caller works on their history (documents, cancellations). */
  includeDeleted?: boolean;
}

/**
 * The merchant in the caller's account and mode. Absent (or in another account or mode) → 404; present but
 * outside a restricted key's merchants → 403, so a restricted key learns nothing about other tenants.
 */
export async function findMerchant(
  em: EntityManager,
  scope: Scope,
  id: string,
  options: FindMerchantOptions = {},
): Promise<MerchantRow> {
  const row = await selectMerchant(em, scope, id, options.includeDeleted);
  if (!row) throw new NotFoundError('merchant', id);
  assertMerchantAccess(scope, id);
  return row;
}

export function assertMerchantAccess(scope: Scope, merchantId: string): void {
  if (scope.merchantIds && !scope.merchantIds.includes(merchantId)) {
    throw new ForbiddenError(
      `This API key is restricted to other merchants and cannot use merchant ${merchantId}.`,
    );
  }
}

/**
 * Account-wide records (the ledger names documents of every merchant) are for keys of the whole account: a key
 * restricted to some merchants is an integration of those merchants, not the account's finance, and gets 403.
 */
export function assertAccountWideKey(scope: Pick<Scope, 'merchantIds'>, what: string): void {
  if (scope.merchantIds)
    throw new ForbiddenError(
      `This API key is restricted to some merchants and cannot read ${what}; use a key of the whole account.`,
    );
}
