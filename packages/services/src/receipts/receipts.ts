import { checkReceiptRecord, computeInvoice, type InvoiceItem } from '@cfdi/cfdi';
import { newId, type EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { attachIdempotentResource } from '../idempotency';
import { findMerchant } from '../merchants';
import { listAnswer, type ListAnswer, type PageRequest, type RowCount } from '../pagination';
import { selectReceiptSettings } from '../merchants/merchant-repository';
import type { RecordContext } from '../records';
import { rejectIssues } from '../records/record-store';
import type { Scope } from '../scope';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { receiptExpiry } from './receipt-expiry';
import { newReceiptKey } from './receipt-key';
import {
  cancelOpenReceipt,
  insertReceipt,
  receiptCount,
  receiptKeysetPage,
  selectScopedReceipt,
  type ReceiptFilters,
  type ReceiptRow,
  type ReceiptStatus,
} from './receipt-repository';

export type { ReceiptRow, ReceiptStatus };

/** POST /v1/receipts after schema validation. */
export interface ReceiptCreate {
  merchantId: string;
  items: InvoiceItem[];
  formaPago: string;
  /** Default true, as for invoices: the prices are what the customer paid. */
  pricesIncludeTax?: boolean;
  /** The shop or till that sold, as the merchant names it. */
  branch?: string;
  /** The sale's id in the merchant's own system. */
  externalId?: string;
}

export interface ReceiptListQuery extends PageRequest, ReceiptFilters {}

export interface ReceiptView {
  id: string;
  object: 'receipt';
  livemode: boolean;
  merchantId: string;
  key: string;
  selfInvoiceUrl: string;
  status: ReceiptStatus;
  items: InvoiceItem[];
  pricesIncludeTax: boolean;
  formaPago: string;
  branch: string | null;
  externalId: string | null;
  subtotal: string;
  total: string;
  expiresAt: string;
  invoiceId: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Saving a receipt also needs where the self-invoicing portal lives, for its `selfInvoiceUrl`. */
export interface ReceiptContext extends RecordContext {
  portalUrl: string;
}

export const selfInvoiceUrl = (portalUrl: string, key: string) => `${portalUrl.replace(/\/$/, '')}/r/${key}`;

export function toReceiptView(row: ReceiptRow, portalUrl: string): ReceiptView {
  return {
    id: row.id,
    object: 'receipt',
    livemode: row.livemode,
    merchantId: row.merchant_id,
    key: row.key,
    selfInvoiceUrl: selfInvoiceUrl(portalUrl, row.key),
    status: row.status,
    items: row.items,
    pricesIncludeTax: row.prices_include_tax,
    formaPago: row.forma_pago,
    branch: row.branch,
    externalId: row.external_id,
    subtotal: row.subtotal,
    total: row.total,
    expiresAt: isoTimestamp(row.expires_at),
    invoiceId: row.invoice_document_id,
    cancelledAt: isoTimestampOrNull(row.cancelled_at),
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/** The totals of the invoice the receipt would become; a sale the SAT could not accept is a 400 on /items. */
function totalsOf(input: ReceiptCreate): { subtotal: string; total: string } {
  try {
    const computed = computeInvoice({ items: input.items, pricesIncludeTax: input.pricesIncludeTax ?? true });
    return { subtotal: computed.subTotal, total: computed.total };
  } catch (error) {
    if (error instanceof RangeError) throw ValidationError.field('/items', error.message);
    throw error;
  }
}

/**
 * Stores a receipt: checked like the invoice it may become (items, payment form), totalled by the tax engine, with a
 * fresh key. Nothing is stamped and no timbre is reserved; that happens when it is invoiced or goes into a global.
 */
export async function createReceipt(
  ctx: ReceiptContext,
  scope: Scope,
  input: ReceiptCreate,
  idempotencyKey?: string,
): Promise<ReceiptView> {
  const merchant = await findMerchant(ctx.em, scope, input.merchantId);
  await ctx.catalogs.index();
  rejectIssues('receipt', checkReceiptRecord(input, ctx.catalogs.lookup));
  const { subtotal, total } = totalsOf(input);
  const settings = (await selectReceiptSettings(ctx.em, merchant.id))!;
  const now = new Date();
  const id = newId('rcpt');
  const row = await ctx.em.transactional(async (tx) => {
    const inserted = await insertReceipt(tx, scope, {
      id,
      merchant_id: merchant.id,
      key: newReceiptKey(),
      items: input.items,
      prices_include_tax: input.pricesIncludeTax ?? true,
      forma_pago: input.formaPago,
      branch: input.branch ?? null,
      external_id: input.externalId ?? null,
      subtotal,
      total,
      expires_at: receiptExpiry(
        now,
        settings.receipt_grace_days,
        settings.global_invoice_enabled ? settings.global_invoice_periodicity : undefined,
      ),
      now,
    });
    if (idempotencyKey) await attachIdempotentResource(tx, scope, idempotencyKey, id);
    return inserted;
  });
  return toReceiptView(row, ctx.portalUrl);
}

/**
 * The receipt of the scope as a row, or 404: another account's or mode's, and one of a merchant a restricted key does
 * not cover, answer like an unknown id. `forUpdate` locks it for the transaction that changes its status.
 */
export async function findReceipt(
  em: EntityManager,
  scope: Scope,
  id: string,
  forUpdate = false,
): Promise<ReceiptRow> {
  const row = await selectScopedReceipt(em, scope, id, forUpdate);
  if (!row || (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id)))
    throw new NotFoundError('receipt', id);
  return row;
}

export async function retrieveReceipt(ctx: ReceiptContext, scope: Scope, id: string): Promise<ReceiptView> {
  return toReceiptView(await findReceipt(ctx.em, scope, id), ctx.portalUrl);
}

/** Receipts newest first, filtered by merchant, status, external id or branch; `offset` for the console's pages. */
export async function listReceipts(
  ctx: ReceiptContext,
  scope: Scope,
  query: ReceiptListQuery,
): Promise<ListAnswer<ReceiptView>> {
  const page = await receiptKeysetPage(ctx.em, scope, query);
  return listAnswer(page, (row) => toReceiptView(row, ctx.portalUrl));
}

/** How many receipts the list query finds (capped, see COUNT_CAP): the console's count. */
export const countReceipts = (
  ctx: ReceiptContext,
  scope: Scope,
  query: Omit<ReceiptListQuery, keyof PageRequest>,
): Promise<RowCount> => receiptCount(ctx.em, scope, query);

export const RECEIPT_STATUSES: readonly ReceiptStatus[] = ['open', 'invoiced', 'in_global', 'cancelled'];

/**
 * Cancels an open receipt (the sale was returned or voided): it leaves the portal and every global invoice. Only an
 * open one: an invoiced receipt is undone by cancelling its invoice. Conditional on `status = 'open'`, so a cancel
 * racing an invoice or the global run leaves exactly one of them done.
 */
export async function cancelReceipt(ctx: ReceiptContext, scope: Scope, id: string): Promise<ReceiptView> {
  const found = await findReceipt(ctx.em, scope, id);
  const row = await cancelOpenReceipt(ctx.em, found.id);
  if (!row) throw notOpen(await findReceipt(ctx.em, scope, id));
  return toReceiptView(row, ctx.portalUrl);
}

/** The 409 of a receipt that is no longer open, saying what became of it. */
export function notOpen(row: Pick<ReceiptRow, 'id' | 'status'>): ConflictError {
  const what = {
    open: 'is open',
    invoiced: 'was already invoiced',
    in_global: 'is already in a global invoice',
    cancelled: 'was cancelled',
  }[row.status];
  return new ConflictError(
    'receipt_not_open',
    `Receipt ${row.id} ${what}; only an open receipt can be changed.`,
  );
}
