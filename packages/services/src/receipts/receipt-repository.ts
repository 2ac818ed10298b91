/**
 * The receipts aggregate's SQL (receipts, and the `global_invoices` row that makes a period's global invoice exist
 * once), parameters bound by the driver. Services call these functions and never write SQL on these tables
 * themselves; each runs on the `EntityManager` it is given, so it joins the caller's transaction. Reads may join the
 * merchant (the portal) or the period's document (its status).
 */
import type { InvoiceItem } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import {
  Conditions,
  keysetCount,
  keysetPage,
  type KeysetList,
  type Page,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { Scope, Tenant } from '../scope';
import { firstRow } from '../sql';

export type ReceiptStatus = 'open' | 'invoiced' | 'in_global' | 'cancelled';

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

// Amounts as the tax engine writes them, so the ticket shows what the invoice made from it will.
const RECEIPT_COLUMNS = `id, livemode, merchant_id, key, status, items, prices_include_tax, forma_pago, branch, external_id,
  subtotal::text as subtotal, total::text as total, expires_at, invoice_document_id, cancelled_at, created_at, updated_at`;

/** A new receipt's columns; `now` is its creation and last change. */
export type ReceiptInsert = Pick<
  ReceiptRow,
  'id' | 'merchant_id' | 'key' | 'items' | 'prices_include_tax' | 'forma_pago' | 'branch' | 'external_id'
> & { subtotal: string; total: string; expires_at: Date; now: Date };

export async function insertReceipt(
  tx: EntityManager,
  scope: Tenant,
  row: ReceiptInsert,
): Promise<ReceiptRow> {
  const inserted: ReceiptRow[] = await tx.execute(
    `insert into receipts (id, account_id, livemode, merchant_id, key, items, prices_include_tax, forma_pago, branch,
         external_id, subtotal, total, expires_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning ${RECEIPT_COLUMNS}`,
    [
      row.id,
      scope.accountId,
      scope.livemode,
      row.merchant_id,
      row.key,
      JSON.stringify(row.items),
      row.prices_include_tax,
      row.forma_pago,
      row.branch,
      row.external_id,
      row.subtotal,
      row.total,
      row.expires_at,
      row.now,
      row.now,
    ],
  );
  return inserted[0]!;
}

/** The tenant's receipt, locked for the transaction with `forUpdate`, or undefined. */
export function selectScopedReceipt(
  em: EntityManager,
  scope: Tenant,
  id: string,
  forUpdate: boolean,
): Promise<ReceiptRow | undefined> {
  return firstRow<ReceiptRow>(
    em,
    `select ${RECEIPT_COLUMNS} from receipts where id = ? and account_id = ? and livemode = ?${forUpdate ? ' for update' : ''}`,
    [id, scope.accountId, scope.livemode],
  );
}

export interface ReceiptFilters {
  merchantId?: string;
  status?: ReceiptStatus;
  externalId?: string;
  branch?: string;
}

/** The receipts list of the scope: a restricted key sees its merchants', filtered by merchant, status, id or branch. */
function receiptList(scope: Scope, query: ReceiptFilters): KeysetList {
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

export const receiptKeysetPage = (
  em: EntityManager,
  scope: Scope,
  query: ReceiptFilters & PageRequest,
): Promise<Page<ReceiptRow>> => keysetPage<ReceiptRow>(em, receiptList(scope, query), query);

export const receiptCount = (em: EntityManager, scope: Scope, query: ReceiptFilters): Promise<RowCount> =>
  keysetCount(em, receiptList(scope, query));

/** `open` → `cancelled`; undefined when the receipt is no longer open. */
export function cancelOpenReceipt(em: EntityManager, id: string): Promise<ReceiptRow | undefined> {
  return firstRow<ReceiptRow>(
    em,
    `update receipts set status = 'cancelled', cancelled_at = now(), updated_at = now()
      where id = ? and status = 'open' returning ${RECEIPT_COLUMNS}`,
    [id],
  );
}

/** The tenant's open receipts among `ids` become `invoiced` by the document; returns those that did. */
export function markReceiptsInvoiced(
  tx: EntityManager,
  scope: Tenant,
  documentId: string,
  ids: string[],
): Promise<ReceiptRow[]> {
  return tx.execute(
    `update receipts set status = 'invoiced', invoice_document_id = ?, updated_at = now()
        where id = any(?::text[]) and account_id = ? and livemode = ? and status = 'open'
        returning id, livemode, merchant_id, key, status, items, prices_include_tax, forma_pago, branch, external_id,
          subtotal::text as subtotal, total::text as total, expires_at, invoice_document_id, cancelled_at, created_at, updated_at`,
    [documentId, ids, scope.accountId, scope.livemode],
  );
}

/** The receipts still pointing at the document (invoiced or in_global) become open again. */
export async function reopenReceiptsOfDocument(tx: EntityManager, documentId: string): Promise<void> {
  await tx.execute(
    `update receipts set status = 'open', invoice_document_id = null, updated_at = now()
      where invoice_document_id = ? and status in ('invoiced', 'in_global')`,
    [documentId],
  );
}

/** The receipts the document covers (invoiced or in_global), in id order. */
export function selectCoveredReceipts(tx: EntityManager, documentId: string): Promise<ReceiptRow[]> {
  return tx.execute(
    `select ${RECEIPT_COLUMNS} from receipts where invoice_document_id = ? and status in ('invoiced', 'in_global') order by id`,
    [documentId],
  );
}

/** A receipt as the portal reads it: with its account and what the page shows of its merchant. */
export interface PortalRow extends ReceiptRow {
  account_id: string;
  merchant_name: string;
  merchant_rfc: string;
  merchant_logo_key: string | null;
  merchant_brand_color: string | null;
  merchant_deleted_at: Date | null;
}

/** The receipts behind these keys (normalized), whoever's they are: the portal checks them together. */
export function selectPortalRows(em: EntityManager, keys: string[]): Promise<PortalRow[]> {
  return em.execute(
    `select r.id, r.account_id, r.livemode, r.merchant_id, r.key, r.status, r.items, r.prices_include_tax,
        r.forma_pago, r.branch, r.external_id, r.subtotal::text as subtotal, r.total::text as total, r.expires_at,
        r.invoice_document_id, r.cancelled_at, r.created_at, r.updated_at,
        m.legal_name as merchant_name, m.rfc as merchant_rfc, m.logo_key as merchant_logo_key,
        m.brand_color as merchant_brand_color, m.deleted_at as merchant_deleted_at
      from receipts r join merchants m on m.id = r.merchant_id
      where r.key = any(?::text[])`,
    [keys],
  );
}

// ---- The global invoice of a merchant's period

/** A merchant's period, as its global invoice is keyed. */
export interface ReceiptPeriod {
  accountId: string;
  livemode: boolean;
  merchantId: string;
  periodicidad: string;
  /** The period's first and last days (YYYY-MM-DD). */
  start: string;
  end: string;
}

/** The merchant's open receipts created in [from, to), oldest first. */
export function selectOpenReceiptsBetween(
  em: EntityManager,
  period: Pick<ReceiptPeriod, 'accountId' | 'livemode' | 'merchantId'>,
  from: Date,
  to: Date,
): Promise<ReceiptRow[]> {
  return em.execute(
    `select ${RECEIPT_COLUMNS} from receipts
      where merchant_id = ? and account_id = ? and livemode = ? and status = 'open' and created_at >= ? and created_at < ?
      order by created_at, id`,
    [period.merchantId, period.accountId, period.livemode, from, to],
  );
}

/** The document claimed for the period and its status, or undefined. */
export function selectPeriodDocument(
  em: EntityManager,
  period: Pick<ReceiptPeriod, 'merchantId' | 'periodicidad' | 'start'>,
): Promise<{ document_id: string; status: string } | undefined> {
  return firstRow<{ document_id: string; status: string }>(
    em,
    `select g.document_id, d.status from global_invoices g join documents d on d.id = g.document_id
      where g.merchant_id = ? and g.periodicidad = ? and g.period_start = ?`,
    [period.merchantId, period.periodicidad, period.start],
  );
}

/** Locks those of the receipts still open, in id order; returns how many it locked. */
export async function lockOpenReceipts(tx: EntityManager, ids: string[]): Promise<number> {
  const locked: unknown[] = await tx.execute(
    `select id from receipts where id = any(?::text[]) and status = 'open' order by id for update`,
    [ids],
  );
  return locked.length;
}

/**
 * Claims the period for the document: a new row, or the row of a period whose document failed to stamp pointed at
 * this one. False when another document holds the period.
 */
export async function claimGlobalInvoicePeriod(
  tx: EntityManager,
  period: ReceiptPeriod,
  documentId: string,
): Promise<boolean> {
  const claimed: unknown[] = await tx.execute(
    `insert into global_invoices (merchant_id, periodicidad, period_start, period_end, account_id, livemode, document_id)
           values (?, ?, ?, ?, ?, ?, ?)
           on conflict (merchant_id, periodicidad, period_start) do update set document_id = excluded.document_id, updated_at = now()
             where exists (select 1 from documents d where d.id = global_invoices.document_id and d.status = 'stamp_failed')
           returning document_id`,
    [
      period.merchantId,
      period.periodicidad,
      period.start,
      period.end,
      period.accountId,
      period.livemode,
      documentId,
    ],
  );
  return claimed.length > 0;
}

/** The open receipts among `ids` go into the global invoice. */
export async function markReceiptsInGlobal(
  tx: EntityManager,
  documentId: string,
  ids: string[],
): Promise<void> {
  await tx.execute(
    `update receipts set status = 'in_global', invoice_document_id = ?, updated_at = now()
            where id = any(?::text[]) and status = 'open'`,
    [documentId, ids],
  );
}

/** The Mexico City days (YYYY-MM-DD) on which the merchant sold receipts still open, since `since`. */
export async function selectOpenReceiptDays(
  em: EntityManager,
  merchantId: string,
  since: Date,
): Promise<string[]> {
  const days: { day: string }[] = await em.execute(
    `select distinct to_char(created_at at time zone 'America/Mexico_City', 'YYYY-MM-DD') as day from receipts
      where merchant_id = ? and status = 'open' and created_at >= ?`,
    [merchantId, since],
  );
  return days.map((row) => row.day);
}
