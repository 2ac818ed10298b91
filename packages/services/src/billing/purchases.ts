import type { EntityManager } from '@cfdi/db';
import type { LedgerScope } from '../ledger';
import { isoTimestamp } from '../time';
import { keysetPage, listAnswer, type PageRequest } from '../pagination';

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

function toPurchaseView(row: PurchaseRow): PurchaseView {
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
export async function listPurchases(em: EntityManager, scope: LedgerScope, page: PageRequest) {
  const rows = await keysetPage<PurchaseRow>(
    em,
    { select: 'select * from purchases', table: 'purchases', scope, noun: 'purchase' },
    page,
  );
  return listAnswer(rows, toPurchaseView);
}
