/**
 * The Stripe purchases' SQL (purchases and the accounts' Stripe customers), part of the ledger aggregate: a purchase
 * is settled with its ledger entry (`tryPostEntry`) in one transaction. Parameters bound by the driver.
 */
import type { EntityManager } from '@cfdi/db';
import { keysetPage, type Page, type PageRequest } from '../pagination';
import { firstRow } from '../sql';

type BalanceScope = { accountId: string; livemode: boolean };

export type PurchaseStatus = 'pending' | 'succeeded' | 'failed';

/** Why a purchase failed: Stripe reported the payment failed, the session expired unpaid, or the session was never created. */
export type PurchaseFailure = 'payment_failed' | 'expired' | 'checkout_not_created' | 'currency_not_mxn';

export interface PurchaseRow {
  id: string;
  account_id: string;
  livemode: boolean;
  status: PurchaseStatus;
  amount_centavos: string;
  stripe_checkout_session_id: string | null;
  credited_centavos: string | null;
  transaction_id: string | null;
  failure_reason: PurchaseFailure | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export async function selectStripeCustomer(
  em: EntityManager,
  scope: BalanceScope,
): Promise<string | undefined> {
  const rows: { customer_id: string }[] = await em.execute(
    'select customer_id from stripe_customers where account_id = ? and livemode = ?',
    [scope.accountId, scope.livemode],
  );
  return rows[0]?.customer_id;
}

/** Keeps whichever customer of the (account, mode) lands first. */
export async function insertStripeCustomer(
  em: EntityManager,
  scope: BalanceScope,
  customerId: string,
): Promise<void> {
  await em.execute(
    'insert into stripe_customers (account_id, livemode, customer_id) values (?, ?, ?) on conflict do nothing',
    [scope.accountId, scope.livemode, customerId],
  );
}

export async function insertPendingPurchase(
  em: EntityManager,
  scope: BalanceScope,
  purchase: { id: string; amount_centavos: number; stripe_customer_id: string },
): Promise<void> {
  await em.execute(
    `insert into purchases (id, account_id, livemode, status, amount_centavos, stripe_customer_id) values (?, ?, ?, 'pending', ?, ?)`,
    [purchase.id, scope.accountId, scope.livemode, purchase.amount_centavos, purchase.stripe_customer_id],
  );
}

/** A pending purchase whose Checkout Session could not be created. */
export async function failPendingPurchase(em: EntityManager, purchaseId: string): Promise<void> {
  await em.execute(
    `update purchases set status = 'failed', failure_reason = 'checkout_not_created', updated_at = now() where id = ? and status = 'pending'`,
    [purchaseId],
  );
}

export async function setPurchaseSession(
  em: EntityManager,
  purchaseId: string,
  sessionId: string,
): Promise<void> {
  await em.execute('update purchases set stripe_checkout_session_id = ?, updated_at = now() where id = ?', [
    sessionId,
    purchaseId,
  ]);
}

export async function lockPurchase(em: EntityManager, purchaseId: string): Promise<PurchaseRow | undefined> {
  return firstRow<PurchaseRow>(em, 'select * from purchases where id = ? for update', [purchaseId]);
}

export async function markPurchaseCredited(
  em: EntityManager,
  purchaseId: string,
  credit: { credited_centavos: number; transaction_id: string; stripe_checkout_session_id: string },
): Promise<void> {
  await em.execute(
    `update purchases set status = 'succeeded', credited_centavos = ?, transaction_id = ?, stripe_checkout_session_id = ?,
                          failure_reason = null, updated_at = now() where id = ?`,
    [credit.credited_centavos, credit.transaction_id, credit.stripe_checkout_session_id, purchaseId],
  );
}

export async function markPurchaseFailed(
  em: EntityManager,
  purchaseId: string,
  sessionId: string,
  reason: PurchaseFailure,
): Promise<void> {
  await em.execute(
    `update purchases set status = 'failed', failure_reason = ?, stripe_checkout_session_id = ?, updated_at = now() where id = ?`,
    [reason, sessionId, purchaseId],
  );
}

/** Purchases of the account and mode, newest first (ids sort by creation time). */
export function purchaseKeysetPage(
  em: EntityManager,
  scope: BalanceScope,
  page: PageRequest,
): Promise<Page<PurchaseRow>> {
  return keysetPage<PurchaseRow>(
    em,
    { select: 'select * from purchases', table: 'purchases', scope, noun: 'purchase' },
    page,
  );
}
