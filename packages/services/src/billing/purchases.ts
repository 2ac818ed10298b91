import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { LedgerScope } from '../ledger';
import { isoTimestamp } from '../time';

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

export interface PurchaseView {
  id: string;
  object: 'purchase';
  livemode: boolean;
  status: PurchaseStatus;
  amountCentavos: number;
  currency: 'MXN';
  creditedCentavos: number | null;
  checkoutSessionId: string | null;
  transactionId: string | null;
  failureReason: PurchaseFailure | null;
  createdAt: string;
  updatedAt: string;
}

export function toPurchaseView(row: PurchaseRow): PurchaseView {
  return {
    id: row.id,
    object: 'purchase',
    livemode: row.livemode,
    status: row.status,
    amountCentavos: Number(row.amount_centavos),
    currency: 'MXN',
    creditedCentavos: row.credited_centavos === null ? null : Number(row.credited_centavos),
    checkoutSessionId: row.stripe_checkout_session_id,
    transactionId: row.transaction_id,
    failureReason: row.failure_reason,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** Purchases of the key's account and mode, newest first (ids sort by creation time). */
export async function listPurchases(em: EntityManager, scope: LedgerScope, input: { limit: number; startingAfter?: string }) {
  const params: unknown[] = [scope.accountId, scope.livemode];
  let where = 'account_id = ? and livemode = ?';
  if (input.startingAfter) {
    const cursor: unknown[] = await em.execute('select 1 from purchases where id = ? and account_id = ? and livemode = ?', [input.startingAfter, ...params]);
    if (!cursor.length) throw ValidationError.field('/starting_after', `No purchase "${input.startingAfter}" to start after.`);
    where += ' and id < ?';
    params.push(input.startingAfter);
  }
  const rows: PurchaseRow[] = await em.execute(`select * from purchases where ${where} order by id desc limit ?`, [...params, input.limit + 1]);
  return { object: 'list' as const, data: rows.slice(0, input.limit).map(toPurchaseView), has_more: rows.length > input.limit };
}
