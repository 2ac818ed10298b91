import type { EntityManager } from '@cfdi/db';
import type { LedgerScope } from '../ledger';
import { isoTimestamp } from '../time';
import { listAnswer, type PageRequest } from '../pagination';
import {
  purchaseKeysetPage,
  type PurchaseFailure,
  type PurchaseRow,
  type PurchaseStatus,
} from './purchase-repository';

export type { PurchaseFailure, PurchaseRow, PurchaseStatus } from './purchase-repository';

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
  const rows = await purchaseKeysetPage(em, scope, page);
  return listAnswer(rows, toPurchaseView);
}
