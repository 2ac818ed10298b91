import { checkReceiptRecord, computeInvoice, type InvoiceItem } from '@cfdi/cfdi';
import { newId, type EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { attachIdempotentResource } from '../idempotency';
import { findMerchant } from '../merchants';
import {
  Conditions,
  keysetCount,
  keysetPage,
  listAnswer,
  type KeysetList,
  type ListAnswer,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { RecordContext } from '../records';
import { rejectIssues } from '../records/record-store';
import type { Scope } from '../scope';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { receiptExpiry } from './receipt-expiry';
import { newReceiptKey } from './receipt-key';
import type { Periodicidad } from './global-period';

export type ReceiptStatus = 'open' | 'invoiced' | 'in_global' | 'cancelled';

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

export interface ReceiptListQuery extends PageRequest {
  merchantId?: string;
  status?: ReceiptStatus;
  externalId?: string;
  branch?: string;
}

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

export interface ReceiptRow {
  id: string;
  livemode: boolean;
  merchant_id: string;
  key: string;
  status: ReceiptStatus;
  items: InvoiceItem[];
  prices_include_tax: boolean;
  forma_pago: string;
  branch: string | null;
  external_id: string | null;
  subtotal: string;
  total: string;
  expires_at: Date | string;
  invoice_document_id: string | null;
  cancelled_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
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

// Amounts as the tax engine writes them, so the ticket shows what the invoice made from it will.
export const RECEIPT_COLUMNS = `id, livemode, merchant_id, key, status, items, prices_include_tax, forma_pago, branch, external_id,
  subtotal::text as subtotal, total::text as total, expires_at, invoice_document_id, cancelled_at, created_at, updated_at`;

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
  const graceRows: {
    receipt_grace_days: number;
    global_invoice_enabled: boolean;
    global_invoice_periodicity: Periodicidad;
  }[] = await ctx.em.execute(
    'select receipt_grace_days, global_invoice_enabled, global_invoice_periodicity from merchants where id = ?',
    [merchant.id],
  );
  const settings = graceRows[0]!;
  const now = new Date();
  const id = newId('rcpt');
  const rows: ReceiptRow[] = await ctx.em.transactional(async (tx) => {
    const inserted: ReceiptRow[] = await tx.execute(
      `insert into receipts (id, account_id, livemode, merchant_id, key, items, prices_include_tax, forma_pago, branch,
         external_id, subtotal, total, expires_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${RECEIPT_COLUMNS}`,
      [
        id,
        scope.accountId,
        scope.livemode,
        merchant.id,
        newReceiptKey(),
        JSON.stringify(input.items),
        input.pricesIncludeTax ?? true,
        input.formaPago,
        input.branch ?? null,
        input.externalId ?? null,
        subtotal,
        total,
        receiptExpiry(
          now,
          settings.receipt_grace_days,
          settings.global_invoice_enabled ? settings.global_invoice_periodicity : undefined,
        ),
        now,
        now,
      ],
    );
    if (idempotencyKey) await attachIdempotentResource(tx, scope, idempotencyKey, id);
    return inserted;
  });
  return toReceiptView(rows[0]!, ctx.portalUrl);
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
  const rows: ReceiptRow[] = await em.execute(
    `select ${RECEIPT_COLUMNS} from receipts where id = ? and account_id = ? and livemode = ?${forUpdate ? ' for update' : ''}`,
    [id, scope.accountId, scope.livemode],
  );
  const row = rows[0];
  if (!row || (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id)))
    throw new NotFoundError('receipt', id);
  return row;
}

export async function retrieveReceipt(ctx: ReceiptContext, scope: Scope, id: string): Promise<ReceiptView> {
  return toReceiptView(await findReceipt(ctx.em, scope, id), ctx.portalUrl);
}

/** The receipts list of the scope: a restricted key sees its merchants', filtered by merchant, status, id or branch. */
function receiptList(scope: Scope, query: Omit<ReceiptListQuery, keyof PageRequest>): KeysetList {
  const where = new Conditions();
  if (scope.merchantIds) where.add('merchant_id = any(?::text[])', scope.merchantIds);
  if (query.merchantId) where.add('merchant_id = ?', query.merchantId);
  if (query.status) where.add('status = ?', query.status);
  if (query.externalId) where.add('external_id = ?', query.externalId);
  if (query.branch) where.add('branch = ?', query.branch);
  return {
    select: `select ${RECEIPT_COLUMNS} from receipts`,
    table: 'receipts',
    scope,
    where,
    noun: 'receipt',
  };
}

/** Receipts newest first, filtered by merchant, status, external id or branch; `offset` for the console's pages. */
export async function listReceipts(
  ctx: ReceiptContext,
  scope: Scope,
  query: ReceiptListQuery,
): Promise<ListAnswer<ReceiptView>> {
  const page = await keysetPage<ReceiptRow>(ctx.em, receiptList(scope, query), query);
  return listAnswer(page, (row) => toReceiptView(row, ctx.portalUrl));
}

/** How many receipts the list query finds (capped, see COUNT_CAP): the console's count. */
export const countReceipts = (
  ctx: ReceiptContext,
  scope: Scope,
  query: Omit<ReceiptListQuery, keyof PageRequest>,
): Promise<RowCount> => keysetCount(ctx.em, receiptList(scope, query));

export const RECEIPT_STATUSES: readonly ReceiptStatus[] = ['open', 'invoiced', 'in_global', 'cancelled'];

/**
 * Cancels an open receipt (the sale was returned or voided): it leaves the portal and every global invoice. Only an
 * open one: an invoiced receipt is undone by cancelling its invoice. Conditional on `status = 'open'`, so a cancel
 * racing an invoice or the global run leaves exactly one of them done.
 */
export async function cancelReceipt(ctx: ReceiptContext, scope: Scope, id: string): Promise<ReceiptView> {
  const found = await findReceipt(ctx.em, scope, id);
  const rows: ReceiptRow[] = await ctx.em.execute(
    `update receipts set status = 'cancelled', cancelled_at = now(), updated_at = now()
      where id = ? and status = 'open' returning ${RECEIPT_COLUMNS}`,
    [found.id],
  );
  if (!rows[0]) throw notOpen(await findReceipt(ctx.em, scope, id));
  return toReceiptView(rows[0], ctx.portalUrl);
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
