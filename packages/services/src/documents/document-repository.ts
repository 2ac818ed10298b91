/**
 * The documents aggregate's SQL, parameters bound by the driver: `documents` (invoices, credit notes, payments,
 * payroll, withholding certificates and transfers, drafts and cancellation requests are all rows of it), their folio
 * sequences, the sealed fingerprints that keep two CFDIs from sealing alike, and the reconciliations' audit rows.
 * Services call these functions and never write SQL on these tables themselves; each function runs on the
 * `EntityManager` it is given, so it joins the caller's transaction. A read may join another aggregate's tables (the
 * merchant's references read with a document at the start of a stamp).
 */
import type { EntityManager, IdPrefix } from '@cfdi/db';
import {
  Conditions,
  countedPage,
  keysetCount,
  keysetPage,
  type CountedPage,
  type KeysetList,
  type ListWindow,
  type Page,
  type PageRequest,
  type RowCount,
} from '../pagination';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';
import { anyRow, firstRow } from '../sql';

type Tenant = Pick<Scope, 'accountId' | 'livemode'>;

export type DocumentType = 'invoice' | 'payment' | 'nomina' | 'retention' | 'traslado';

/** Each type's id prefix: a type's documents are one id range, which bounds every list by type. */
export const DOCUMENT_ID_PREFIX = {
  invoice: 'inv',
  payment: 'pay',
  nomina: 'nom',
  retention: 'ret',
  traslado: 'tra',
} as const satisfies Record<DocumentType, IdPrefix>;
/** `draft`: stored but not stamped, with no folio, no reservation and no fiscal existence (see drafts/). */
export type DocumentStatus =
  'draft' | 'stamping' | 'stamped' | 'stamp_failed' | 'cancel_pending' | 'cancelled';
export type FilesStatus = 'pending' | 'processing' | 'ready' | 'failed';

/** A `documents` row as raw queries return it (numeric columns come back as strings). */
export interface DocumentRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string;
  type: DocumentType;
  kind: 'nominal' | 'global' | 'credit_note' | null;
  status: DocumentStatus;
  serie: string;
  /** Null only on a draft: a folio is assigned when the document is stamped. */
  folio: string | null;
  folio_text: string | null;
  metodo_pago: string | null;
  forma_pago: string | null;
  uso_cfdi: string | null;
  currency: string;
  subtotal: string;
  discount: string;
  total: string;
  saldo_pendiente: string | null;
  receiver: { rfc: string; name: string; zip: string; regimenFiscal: string };
  tipo_relacion: string | null;
  related_uuid: string | null;
  related_invoice_id: string | null;
  invoice_id: string | null;
  /**
   * The saved customer the receiver was copied from (the copy in `receiver` is what the CFDI carries). Optional: a
   * record built before the column existed (one crossing Temporal from an older worker) has none.
   */
  customer_id?: string | null;
  num_parcialidad: number | null;
  monto: string | null;
  fecha_pago: string | null;
  saldo_anterior: string | null;
  saldo_insoluto: string | null;
  input: Record<string, unknown>;
  /** A draft's create body as sent and patched; null on documents created to be stamped at once. */
  request: Record<string, unknown> | null;
  fecha: string | null;
  sealed_xml: string | null;
  stamped_xml: string | null;
  uuid: string | null;
  stamped_at: Date | string | null;
  sat_code: string | null;
  failure_detail: string | null;
  needs_reconciliation: boolean;
  reservation_id: string | null;
  reservation_state: 'reserved' | 'confirmed' | 'refunded';
  files_status: FilesStatus;
  files: { xml?: string; pdf?: string; zip?: string; acuse?: string } | null;
  cancellation: Record<string, unknown> | null;
  created_at: Date | string;
  updated_at: Date | string;
}

// ---- One document by key

/** The document of the tenant with this id (and type, when given), or undefined. */
export function selectScopedDocument(
  em: EntityManager,
  scope: Tenant,
  id: string,
  type?: DocumentType,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    `select * from documents where id = ? and account_id = ? and livemode = ?${type ? ' and type = ?' : ''}`,
    type ? [id, scope.accountId, scope.livemode, type] : [id, scope.accountId, scope.livemode],
  );
}

/** The document by id alone (workers act on behalf of whoever created it), or undefined. */
export function selectDocument(em: EntityManager, id: string): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(em, 'select * from documents where id = ?', [id]);
}

/** A document read with its merchant's references (`merchant_*` columns), in one query. */
export type DocumentWithMerchantColumns = DocumentRow & {
  merchant_csd_serial: string | null;
  merchant_logo_key: string | null;
  merchant_brand_color: string | null;
  merchant_pdf_note: string | null;
  merchant_auto_email: boolean | null;
};

export function selectDocumentWithMerchantColumns(
  em: EntityManager,
  id: string,
): Promise<DocumentWithMerchantColumns | undefined> {
  return firstRow<DocumentWithMerchantColumns>(
    em,
    `select d.*, c.serial_number as merchant_csd_serial, m.logo_key as merchant_logo_key,
              m.brand_color as merchant_brand_color, m.pdf_note as merchant_pdf_note,
              coalesce(cu.auto_email, m.auto_email) as merchant_auto_email
       from documents d left join merchants m on m.id = d.merchant_id left join merchant_csds c on c.merchant_id = d.merchant_id
            left join customers cu on cu.id = d.customer_id and cu.deleted_at is null
      where d.id = ?`,
    [id],
  );
}

/** The document with its merchant's `auto_email` setting (the automatic e-mail's check), or undefined. */
export function selectDocumentWithAutoEmail(
  em: EntityManager,
  id: string,
): Promise<(DocumentRow & { auto_email: boolean }) | undefined> {
  return firstRow<DocumentRow & { auto_email: boolean }>(
    em,
    'select d.*, m.auto_email from documents d join merchants m on m.id = d.merchant_id where d.id = ?',
    [id],
  );
}

/** The document locked for the transaction (`for update`), or undefined. */
export function lockDocument(tx: EntityManager, id: string): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(tx, 'select * from documents where id = ? for update', [id]);
}

/** Takes the row lock of a document without reading it (payment creation takes the invoice's the same way). */
export async function lockDocumentId(tx: EntityManager, id: string | null): Promise<void> {
  await tx.execute('select id from documents where id = ? for update', [id]);
}

/** The tenant's document of this type, locked for the transaction; the row type is the caller's view of it. */
export function lockScopedDocument<Row extends DocumentRow = DocumentRow>(
  tx: EntityManager,
  scope: Tenant,
  id: string,
  type: DocumentType,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    'select * from documents where id = ? and account_id = ? and livemode = ? and type = ? for update',
    [id, scope.accountId, scope.livemode, type],
  );
}

/** The tenant's invoice, locked: payments of one invoice are decided one at a time. */
export function lockScopedInvoice(
  tx: EntityManager,
  scope: Tenant,
  invoiceId: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `select * from documents where id = ? and account_id = ? and livemode = ? and type = 'invoice' for update`,
    [invoiceId, scope.accountId, scope.livemode],
  );
}

/** The tenant's invoice (or credit note) for a draft operation, locked with `lock`. */
export function selectScopedInvoice(
  em: EntityManager,
  scope: Tenant,
  id: string,
  lock: boolean,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    `select * from documents where id = ? and account_id = ? and livemode = ? and type = 'invoice'${lock ? ' for update' : ''}`,
    [id, scope.accountId, scope.livemode],
  );
}

// ---- By UUID

/** The tenant's document holding this UUID (already upper-case), or undefined. */
export function selectDocumentByUuid(
  em: EntityManager,
  scope: Tenant,
  uuid: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    em,
    'select * from documents where account_id = ? and livemode = ? and uuid = ?',
    [scope.accountId, scope.livemode, uuid],
  );
}

/** Whether any document, of any tenant, holds this UUID (already upper-case): a yes/no that names nobody. */
export function uuidHeld(em: EntityManager, uuid: string): Promise<boolean> {
  return anyRow(em, 'select 1 from documents where uuid = ?', [uuid]);
}

/** Whether any document other than `documentId`, of any tenant, holds this UUID (already upper-case). */
export function uuidHeldByAnother(em: EntityManager, uuid: string, documentId: string): Promise<boolean> {
  return anyRow(em, 'select 1 from documents where uuid = ? and id <> ?', [uuid, documentId]);
}

/** Another document of the same account and mode as `documentId` holding this UUID (already upper-case). */
export async function selectOtherHolderOfUuid(
  em: EntityManager,
  uuid: string,
  documentId: string,
): Promise<string | null> {
  const row = await firstRow<{ id: string }>(
    em,
    `select other.id from documents other join documents me on me.id = ?
      where other.uuid = ? and other.id <> me.id and other.account_id = me.account_id and other.livemode = me.livemode`,
    [documentId, uuid],
  );
  return row?.id ?? null;
}

/** The replacement a cancellation with motive 01 names (UUID already upper-case), with its XML, or undefined. */
export function selectReplacementByUuid(
  tx: EntityManager,
  scope: Tenant,
  uuid: string,
): Promise<Pick<DocumentRow, 'id' | 'status' | 'stamped_xml' | 'sealed_xml'> | undefined> {
  return firstRow(
    tx,
    'select id, status, stamped_xml, sealed_xml from documents where account_id = ? and livemode = ? and uuid = ?',
    [scope.accountId, scope.livemode, uuid],
  );
}

/** The tenant's documents holding these UUIDs (already upper-case), as a payroll replacement checks them. */
export function selectDocumentsByUuids(
  em: EntityManager,
  scope: Tenant,
  uuids: string[],
): Promise<Array<Pick<DocumentRow, 'id' | 'uuid' | 'type' | 'status' | 'merchant_id'>>> {
  return em.execute(
    'select id, uuid, type, status, merchant_id from documents where account_id = ? and livemode = ? and uuid = any(?)',
    [scope.accountId, scope.livemode, uuids],
  );
}

/** The tenant's payment complements among these UUIDs (already upper-case). */
export function selectPaymentUuids(
  em: EntityManager,
  scope: Tenant,
  uuids: string[],
): Promise<Array<{ uuid: string }>> {
  return em.execute(
    `select uuid from documents where account_id = ? and livemode = ? and type = 'payment' and uuid = any(?)`,
    [scope.accountId, scope.livemode, uuids],
  );
}

// ---- An invoice's payments and credit notes

/** A payment counts towards the invoice from creation until it is cancelled or fails to stamp. */
export const LIVE_PAYMENT_STATUSES = ['stamping', 'stamped', 'cancel_pending'] as const;

/** The invoice's live payments, in NumParcialidad order. */
export function selectLivePayments(em: EntityManager, invoiceId: string): Promise<DocumentRow[]> {
  return em.execute(
    `select * from documents where invoice_id = ? and type = 'payment' and status in (${LIVE_PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})
      order by num_parcialidad`,
    [invoiceId],
  );
}

/** The credit notes in the given statuses that relate this invoice, by its id or by its UUID. */
export function selectCreditNotesOf(
  em: EntityManager,
  invoice: Pick<DocumentRow, 'account_id' | 'livemode' | 'id' | 'uuid'>,
  statuses: readonly string[],
): Promise<Pick<DocumentRow, 'id' | 'total'>[]> {
  return em.execute(
    `select id, total from documents
      where account_id = ? and livemode = ? and kind = 'credit_note' and status = any(?) and (related_invoice_id = ? or related_uuid = ?)
      order by id`,
    [invoice.account_id, invoice.livemode, statuses, invoice.id, invoice.uuid],
  );
}

/** The credit notes of the invoice (by its id) stamping, stamped or being cancelled, with their cancellation. */
export function selectUnsettledOrLiveCreditNotes(
  tx: EntityManager,
  invoiceId: string,
): Promise<
  Array<Pick<DocumentRow, 'id' | 'status' | 'monto'> & { cancellation: { status?: string } | null }>
> {
  return tx.execute(
    `select id, status, monto, cancellation from documents
      where related_invoice_id = ? and kind = 'credit_note' and status in ('stamping', 'stamped', 'cancel_pending')`,
    [invoiceId],
  );
}

/** Takes `amount` off the invoice's outstanding balance (a payment or credit note created against it). */
export async function reduceInvoiceBalance(
  tx: EntityManager,
  invoiceId: string,
  amount: string,
): Promise<void> {
  await tx.execute(
    'update documents set saldo_pendiente = saldo_pendiente - ?, updated_at = now() where id = ?',
    [amount, invoiceId],
  );
}

/** Gives back to the invoice's balance what a document took (`add` − `less`, in the invoice's currency). */
export async function restoreInvoiceBalanceBy(
  tx: EntityManager,
  invoiceId: string,
  add: string,
  less: string,
): Promise<void> {
  await tx.execute(
    'update documents set saldo_pendiente = saldo_pendiente + (?::numeric - ?::numeric), updated_at = now() where id = ?',
    [add, less, invoiceId],
  );
}

// ---- Creating documents and drafts

export interface NewDocument {
  id: string;
  type: DocumentType;
  kind?: 'nominal' | 'global' | 'credit_note' | null;
  merchantId: string;
  serie: string;
  /** Null for a draft, like its reservation. */
  folio: number | null;
  folioText: string | null;
  metodoPago?: string | null;
  formaPago?: string | null;
  usoCfdi?: string | null;
  /** c_Moneda of the amounts below; default MXN. */
  currency?: string;
  receiver: object;
  subtotal: string;
  discount: string;
  total: string;
  saldoPendiente?: string | null;
  tipoRelacion?: string | null;
  relatedUuid?: string | null;
  relatedInvoiceId?: string | null;
  invoiceId?: string | null;
  numParcialidad?: number | null;
  monto?: string | null;
  fechaPago?: string | null;
  saldoAnterior?: string | null;
  saldoInsoluto?: string | null;
  input: object;
  reservationId: string | null;
  /** A draft's create body (see `DocumentRow.request`). */
  request?: object | null;
  /** The saved customer the receiver was copied from, if any. */
  customerId?: string | null;
}

/** The columns a new document sets besides its id, account and mode, in the order of `values`. */
const COLUMNS = [
  'merchant_id',
  'type',
  'kind',
  'status',
  'serie',
  'folio',
  'folio_text',
  'metodo_pago',
  'forma_pago',
  'uso_cfdi',
  'currency',
  'receiver',
  'subtotal',
  'discount',
  'total',
  'saldo_pendiente',
  'tipo_relacion',
  'related_uuid',
  'related_invoice_id',
  'invoice_id',
  'num_parcialidad',
  'monto',
  'fecha_pago',
  'saldo_anterior',
  'saldo_insoluto',
  'input',
  'reservation_id',
  'request',
  'customer_id',
];

function values(doc: NewDocument, status: 'draft' | 'stamping'): unknown[] {
  return [
    doc.merchantId,
    doc.type,
    doc.kind ?? null,
    status,
    doc.serie,
    doc.folio,
    doc.folioText,
    doc.metodoPago ?? null,
    doc.formaPago ?? null,
    doc.usoCfdi ?? null,
    doc.currency ?? 'MXN',
    JSON.stringify(doc.receiver),
    doc.subtotal,
    doc.discount,
    doc.total,
    doc.saldoPendiente ?? null,
    doc.tipoRelacion ?? null,
    doc.relatedUuid ?? null,
    doc.relatedInvoiceId ?? null,
    doc.invoiceId ?? null,
    doc.numParcialidad ?? null,
    doc.monto ?? null,
    doc.fechaPago ?? null,
    doc.saldoAnterior ?? null,
    doc.saldoInsoluto ?? null,
    JSON.stringify(doc.input),
    doc.reservationId,
    doc.request === undefined || doc.request === null ? null : JSON.stringify(doc.request),
    doc.customerId ?? null,
  ];
}

/** Inserts a document `stamping` (with its folio and reservation) or, with `status: 'draft'`, a draft. */
export async function insertDocument(
  em: EntityManager,
  scope: Tenant,
  doc: NewDocument,
  status: 'draft' | 'stamping' = 'stamping',
): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute(
    `insert into documents (id, account_id, livemode, ${COLUMNS.join(', ')})
     values (?, ?, ?, ${COLUMNS.map(() => '?').join(', ')})
     returning *`,
    [doc.id, scope.accountId, scope.livemode, ...values(doc, status)],
  );
  return rows[0]!;
}

/**
 * Rewrites a draft as the document it becomes: `stamping` with its folio and reservation, or (`status: 'draft'`) the
 * draft as edited. Only a row still `draft` changes; the caller holds its row lock, so none other can.
 */
export async function promoteDraft(
  em: EntityManager,
  doc: NewDocument,
  status: 'draft' | 'stamping' = 'stamping',
): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute(
    `update documents set ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = now()
      where id = ? and status = 'draft' returning *`,
    [...values(doc, status), doc.id],
  );
  if (!rows[0]) throw new Error(`document ${doc.id} is no longer a draft`);
  return rows[0];
}

export async function deleteDraftRow(tx: EntityManager, id: string): Promise<void> {
  await tx.execute(`delete from documents where id = ? and status = 'draft'`, [id]);
}

// ---- Folios

/** Increments the (merchant, serie) sequence under its row lock and returns the folio it gives. */
export async function incrementFolio(em: EntityManager, merchantId: string, serie: string): Promise<string> {
  const rows: { last_folio: string }[] = await em.execute(
    `insert into folio_sequences (merchant_id, serie, last_folio) values (?, ?, 1)
     on conflict (merchant_id, serie) do update set last_folio = folio_sequences.last_folio + 1
     returning last_folio`,
    [merchantId, serie],
  );
  return rows[0]!.last_folio;
}

export function selectFolioSequences(
  em: EntityManager,
  merchantId: string,
): Promise<{ serie: string; last_folio: string }[]> {
  return em.execute('select serie, last_folio from folio_sequences where merchant_id = ? order by serie', [
    merchantId,
  ]);
}

/** Moves the sequence forward to `lastFolio`, in one statement under the row lock; undefined when it is not above. */
export async function advanceFolio(
  em: EntityManager,
  merchantId: string,
  serie: string,
  lastFolio: number,
): Promise<string | undefined> {
  const row = await firstRow<{ last_folio: string }>(
    em,
    `insert into folio_sequences (merchant_id, serie, last_folio) values (?, ?, ?)
     on conflict (merchant_id, serie) do update set last_folio = excluded.last_folio
       where folio_sequences.last_folio < excluded.last_folio
     returning last_folio`,
    [merchantId, serie, lastFolio],
  );
  return row?.last_folio;
}

// ---- Sealing

/** Claims the fingerprint for the document, or else reads who holds it: one round trip (see sealDocument). */
export async function claimSealedFingerprint(
  em: EntityManager,
  fingerprint: string,
  documentId: string,
): Promise<string | undefined> {
  const holder = await firstRow<{ document_id: string }>(
    em,
    `with claimed as (insert into sealed_fingerprints (fingerprint, document_id) values (?, ?) on conflict do nothing returning document_id)
       select document_id from claimed union all select document_id from sealed_fingerprints where fingerprint = ?`,
    [fingerprint, documentId, fingerprint],
  );
  return holder?.document_id;
}

export interface SealedColumns {
  sealedXml: string;
  fecha: string | null;
  subtotal: string;
  discount: string;
  total: string;
}

/** Stores the sealed XML and the amounts it carries, once: undefined when another attempt sealed it first. */
export async function storeSealedXml(
  em: EntityManager,
  documentId: string,
  sealed: SealedColumns,
): Promise<string | undefined> {
  const row = await firstRow<{ sealed_xml: string }>(
    em,
    `update documents set sealed_xml = ?, fecha = ?, subtotal = ?, discount = ?, total = ?,
            saldo_pendiente = case when saldo_pendiente is null then null else ?::numeric end, updated_at = now()
      where id = ? and sealed_xml is null returning sealed_xml`,
    [
      sealed.sealedXml,
      sealed.fecha,
      sealed.subtotal,
      sealed.discount,
      sealed.total,
      sealed.total,
      documentId,
    ],
  );
  return row?.sealed_xml;
}

export async function selectSealedXml(em: EntityManager, documentId: string): Promise<string> {
  const rows: { sealed_xml: string }[] = await em.execute('select sealed_xml from documents where id = ?', [
    documentId,
  ]);
  return rows[0]!.sealed_xml;
}

// ---- Stamp outcomes

/**
 * `stamping` → `stamped` with the stamp, unless another document holds its UUID (checked in the same statement);
 * `filesJson` (null when the files are not produced on demand) marks the files ready with their keys.
 */
export function markStamped(
  tx: EntityManager,
  documentId: string,
  stamp: { xml: string; uuid: string; filesJson: string | null },
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamped', stamped_xml = ?, uuid = ?, stamped_at = now(), needs_reconciliation = false,
              reservation_state = 'confirmed', files_status = case when ?::jsonb is null then files_status else 'ready' end,
              files = coalesce(files, '{}'::jsonb) || coalesce(?::jsonb, '{}'::jsonb), updated_at = now()
        where id = ? and status = 'stamping' and not exists (select 1 from documents other where other.uuid = ? and other.id <> ?)
        returning *`,
    [stamp.xml, stamp.uuid, stamp.filesJson, stamp.filesJson, documentId, stamp.uuid, documentId],
  );
}

/** `stamping` → `stamped` with the UUID alone (an operator's resolution without the PAC's copy). */
export function markStampedWithoutXml(
  tx: EntityManager,
  documentId: string,
  uuid: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamped', uuid = ?, stamped_at = now(), needs_reconciliation = false,
              reservation_state = 'confirmed', files_status = 'failed', updated_at = now()
        where id = ? and status = 'stamping' returning *`,
    [uuid, documentId],
  );
}

export function markStampFailed(
  tx: EntityManager,
  documentId: string,
  failure: { code: string; message: string },
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set status = 'stamp_failed', sat_code = ?, failure_detail = ?, needs_reconciliation = false,
              reservation_state = 'refunded', updated_at = now()
        where id = ? and status = 'stamping' returning *`,
    [failure.code, failure.message, documentId],
  );
}

export function flagNeedsReconciliation(
  tx: EntityManager,
  documentId: string,
  detail: string,
): Promise<DocumentRow | undefined> {
  return firstRow<DocumentRow>(
    tx,
    `update documents set needs_reconciliation = true, failure_detail = ?, updated_at = now()
        where id = ? and status = 'stamping' and not needs_reconciliation returning *`,
    [detail, documentId],
  );
}

export interface ReconciliationInsert {
  id: string;
  documentId: string;
  resolution: 'stamped' | 'not_stamped';
  uuid: string | null;
  resolvedBy: string;
  note: string | null;
}

/** Records a reconciliation's resolution; the same decision recorded again keeps the one row. */
export async function insertReconciliation(em: EntityManager, row: ReconciliationInsert): Promise<void> {
  await em.execute(
    'insert into reconciliations (id, document_id, resolution, uuid, resolved_by, note) values (?, ?, ?, ?, ?, ?) on conflict do nothing',
    [row.id, row.documentId, row.resolution, row.uuid, row.resolvedBy, row.note],
  );
}

export interface ReconciliationRow {
  id: string;
  resolution: string;
  uuid: string | null;
  resolved_by: string;
  note: string | null;
  created_at: string;
}

export function selectReconciliations(em: EntityManager, documentId: string): Promise<ReconciliationRow[]> {
  return em.execute<ReconciliationRow[]>('select * from reconciliations where document_id = ? order by id', [
    documentId,
  ]);
}

// ---- Cancellation requests (the row type is the caller's view of `cancellation`)

/** Records a cancellation request: the previous `cancellation` kept aside, the new one and its timbre's consume. */
export async function markCancellationRequested<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  cancellationJson: string,
  reservationId: string,
): Promise<Row> {
  const rows: Row[] = await tx.execute(
    `update documents set cancellation_previous = cancellation, cancellation = ?, cancel_reservation_id = ?, updated_at = now()
        where id = ? returning *`,
    [cancellationJson, reservationId, documentId],
  );
  return rows[0]!;
}

/** The SAT accepted the pending request: the status and what `cancellation` gains (`changesJson`). */
export function markCancellationSubmitted<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  status: 'cancelled' | 'cancel_pending',
  changesJson: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set status = ?, cancellation = cancellation || ?::jsonb, updated_at = now()
        where id = ? and status = 'stamped' and cancellation->>'status' = 'pending' returning *`,
    [status, changesJson, documentId],
  );
}

/** The receiver answered a `cancel_pending` request (or the window passed). */
export function markCancellationResolved<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
  status: 'cancelled' | 'stamped',
  changesJson: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set status = ?, cancellation = cancellation || ?::jsonb, updated_at = now()
        where id = ? and status = 'cancel_pending' returning *`,
    [status, changesJson, documentId],
  );
}

/** The pending request never took effect: `cancellation` goes back to what it was before it. */
export function restorePreviousCancellation<Row extends DocumentRow>(
  tx: EntityManager,
  documentId: string,
): Promise<Row | undefined> {
  return firstRow<Row>(
    tx,
    `update documents set cancellation = cancellation_previous, cancellation_previous = null, updated_at = now()
        where id = ? and status = 'stamped' and cancellation->>'status' = 'pending' returning *`,
    [documentId],
  );
}

// ---- Files

export async function markFilesFailed(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(`update documents set files_status = 'failed', updated_at = now() where id = ?`, [
    documentId,
  ]);
}

export async function markFilesProcessing(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'processing', updated_at = now() where id = ? and files_status <> 'ready'`,
    [documentId],
  );
}

/** The files ready, with their storage keys (`keysJson`) merged into `files`. */
export async function markFilesReady(em: EntityManager, documentId: string, keysJson: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'ready', files = coalesce(files, '{}'::jsonb) || ?::jsonb, updated_at = now() where id = ?`,
    [keysJson, documentId],
  );
}

/** `ready` → `failed`: a download that promised files found them unrenderable. */
export async function markReadyFilesFailed(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'failed', updated_at = now() where id = ? and files_status = 'ready'`,
    [documentId],
  );
}

/** `failed` → `ready`: rendered again on a download. */
export async function markFailedFilesReady(em: EntityManager, documentId: string): Promise<void> {
  await em.execute(
    `update documents set files_status = 'ready', updated_at = now() where id = ? and files_status = 'failed'`,
    [documentId],
  );
}

/** Waits for (and takes) the per-document lock of `lockKey` until the transaction ends. */
export async function lockDocumentWork(
  tx: EntityManager,
  lockKey: number,
  documentId: string,
): Promise<void> {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [lockKey, documentId]);
}

// ---- Operators' queues and the stalled-work sweep

const AWAITING_RECONCILIATION = `select * from documents where needs_reconciliation and status = 'stamping' order by id`;
const FAILED_FILES = `select * from documents where files_status = 'failed' and uuid is not null order by id`;

export const selectAwaitingReconciliation = (em: EntityManager): Promise<DocumentRow[]> =>
  em.execute(AWAITING_RECONCILIATION);

export const awaitingReconciliationCountedPage = (
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<DocumentRow>> => countedPage(em, AWAITING_RECONCILIATION, [], window);

export const selectFailedFiles = (em: EntityManager): Promise<DocumentRow[]> => em.execute(FAILED_FILES);

export const failedFilesCountedPage = (
  em: EntityManager,
  window: ListWindow,
): Promise<CountedPage<DocumentRow>> => countedPage(em, FAILED_FILES, [], window);

/**
 * Work the API accepted (document committed, timbre reserved) and then hands to a workflow:
 * - `stamping`: still stamping, outside reconciliation (only its workflow sets that flag, so it has one);
 * - `cancellation`: a cancellation request recorded (`cancellation.status` pending) on a still-stamped document.
 */
export type StalledWork = 'stamping' | 'cancellation';

const SINCE: Record<StalledWork, { since: string; where: string }> = {
  stamping: { since: 'created_at', where: "status = 'stamping' and not needs_reconciliation" },
  // The request's own update set updated_at (the database's clock, like created_at; requestedAt is the API's).
  cancellation: { since: 'updated_at', where: "status = 'stamped' and cancellation->>'status' = 'pending'" },
};

/** A page of the documents whose work has waited more than `olderThanSeconds`, oldest first, after `after`. */
export function selectStalledDocuments(
  em: EntityManager,
  work: StalledWork,
  query: { olderThanSeconds: number; limit: number; after?: { since: string; id: string } },
): Promise<{ id: string; since: Date }[]> {
  const { since, where } = SINCE[work];
  return em.execute(
    `select id, ${since} as since from documents
      where ${where} and ${since} < now() - make_interval(secs => ?) and (${since}, id) > (?::timestamptz, ?)
      order by ${since}, id limit ?`,
    [query.olderThanSeconds, query.after?.since ?? '-infinity', query.after?.id ?? '', query.limit],
  );
}

export async function countStalled(
  em: EntityManager,
  work: StalledWork,
  olderThanSeconds: number,
): Promise<number> {
  const { since, where } = SINCE[work];
  const rows: { n: number }[] = await em.execute(
    `select count(*)::int as n from documents where ${where} and ${since} < now() - make_interval(secs => ?)`,
    [olderThanSeconds],
  );
  return rows[0]?.n ?? 0;
}

// ---- The API's lists

export interface DocumentFilters {
  merchantId?: string;
  kind?: 'nominal' | 'global' | 'credit_note';
  status?: DocumentStatus;
  uuid?: string;
  metodoPago?: 'PUE' | 'PPD';
  invoiceId?: string;
  createdFrom?: string;
  createdTo?: string;
  /** Payroll: the employee's RFC (the CFDI's receiver). */
  employeeRfc?: string;
  /** Withholding certificates: the receiver's RFC (a Nacional receiver's RfcR). */
  receiverRfc?: string;
  /** Payroll: FechaPago from / to (YYYY-MM-DD, inclusive). */
  paymentDateFrom?: string;
  paymentDateTo?: string;
}

/**
 * The scope's documents of a type, newest first, with every filter of the spec; `idRange` is the created_at range as
 * ids (ids begin with their creation time), which the key walk uses (there is no created_at index to walk).
 */
export function documentKeysetPage(
  em: EntityManager,
  scope: Scope,
  type: DocumentType,
  filters: DocumentFilters,
  idRange: { from: string | null; to: string | null },
  page: PageRequest,
): Promise<Page<DocumentRow>> {
  const where = new Conditions().add('type = ?', type);
  if (scope.merchantIds) where.add('merchant_id = any(?)', scope.merchantIds);
  if (filters.merchantId) where.add('merchant_id = ?', filters.merchantId);
  if (filters.kind) where.add('kind = ?', filters.kind);
  if (filters.status) where.add('status = ?', filters.status);
  if (filters.uuid) where.add('uuid = ?', filters.uuid.toUpperCase());
  if (filters.metodoPago) where.add('metodo_pago = ?', filters.metodoPago);
  if (filters.invoiceId) where.add('invoice_id = ?', filters.invoiceId);
  if (filters.createdFrom) where.add('created_at >= ?', filters.createdFrom);
  if (filters.createdTo) where.add('created_at <= ?', filters.createdTo);
  if (idRange.from) where.add('id >= ?', idRange.from);
  if (idRange.to) where.add('id < ?', idRange.to);
  if (filters.employeeRfc) where.add("receiver->>'rfc' = ?", filters.employeeRfc.toUpperCase());
  if (filters.receiverRfc) where.add("receiver->>'rfc' = ?", filters.receiverRfc.toUpperCase());
  if (filters.paymentDateFrom) where.add('fecha_pago >= ?', filters.paymentDateFrom);
  if (filters.paymentDateTo) where.add('fecha_pago <= ?', filters.paymentDateTo);
  // A cursor of another type (a payment's id in the invoice list) is as unknown as another account's.
  return keysetPage<DocumentRow>(
    em,
    {
      select: 'select * from documents',
      table: 'documents',
      scope,
      where,
      idPrefix: DOCUMENT_ID_PREFIX[type],
      cursorAlso: { type },
      noun: type,
    },
    page,
  );
}

// ---- The console's search, related documents and receivables

/** The document types other than invoices, each a kind of its own in the search: every type the registry has. */
export const OTHER_TYPES = (Object.keys(DOCUMENT_ID_PREFIX) as DocumentType[]).filter(
  (t): t is Exclude<DocumentType, 'invoice'> => t !== 'invoice',
);
/** What a finance user calls a document's kind: the invoice kinds plus the other document types. */
export type SearchKind = 'nominal' | 'global' | 'credit_note' | Exclude<DocumentType, 'invoice'>;

export interface DocumentSearch {
  uuid?: string;
  /** Receiver RFC (exact) or part of the receiver's name. */
  receiver?: string;
  serie?: string;
  folio?: string;
  status?: DocumentStatus;
  kind?: SearchKind;
  merchantId?: string;
  /** Calendar dates (YYYY-MM-DD) in Mexico City, inclusive. */
  from?: string;
  to?: string;
  /** Total in pesos, inclusive. */
  minTotal?: number;
  maxTotal?: number;
  /** Only invoices a customer still owes something on (see receivables.ts). */
  withBalance?: boolean;
  startingAfter?: string;
}

/**
 * What counts as a receivable: a stamped PPD invoice (not a credit note) whose balance is not yet paid. A cancelled
 * invoice is owed by no one; one still `cancel_pending` is owed until the SAT says otherwise.
 */
const OPEN_INVOICE = `type = 'invoice' and coalesce(kind, '') <> 'credit_note' and metodo_pago = 'PPD'
  and status in ('stamped', 'cancel_pending') and saldo_pendiente > 0`;

/** The search's list (its fields already checked): the console shows fiscal documents, never drafts. */
function documentSearchList(scope: Scope, search: DocumentSearch): KeysetList {
  // A draft is an integrator's work in progress, with no folio and no timbre.
  const where = new Conditions().add("status <> 'draft'");
  if (scope.merchantIds) where.add('merchant_id = any(?)', scope.merchantIds);
  // A whole UUID, or its first characters as people copy them from a PDF.
  if (search.uuid)
    where.add(
      'uuid like ?',
      `${search.uuid
        .trim()
        .toUpperCase()
        .replace(/[\\%_]/g, '')}%`,
    );
  if (search.receiver) {
    const text = search.receiver.trim();
    if (RFC.test(text)) where.add("receiver->>'rfc' = ?", text.toUpperCase());
    else where.add("receiver->>'name' ilike ?", `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  if (search.serie) where.add('serie = ?', search.serie.trim().toUpperCase());
  if (search.folio) {
    // As printed too: `F-1005` (serie-folio, as the console lists it) or `F1005` finds folio 1005 of serie F.
    const folio = search.folio.trim();
    where.add(
      `(? in (folio::text, folio_text)
        or upper(?) in (serie || '-' || coalesce(folio_text, folio::text), serie || coalesce(folio_text, folio::text)))`,
      folio,
      folio,
    );
  }
  if (search.status) where.add('status = ?', search.status);
  if (search.kind && (OTHER_TYPES as readonly string[]).includes(search.kind))
    where.add('type = ?', search.kind);
  else if (search.kind) where.add("type = 'invoice' and kind = ?", search.kind);
  if (search.merchantId) where.add('merchant_id = ?', search.merchantId);
  if (search.from) where.add(`created_at >= (?::date)::timestamp at time zone '${MEXICO_CITY}'`, search.from);
  if (search.to) where.add(`created_at < (?::date + 1)::timestamp at time zone '${MEXICO_CITY}'`, search.to);
  if (search.minTotal !== undefined) where.add('total >= ?', search.minTotal);
  if (search.maxTotal !== undefined) where.add('total <= ?', search.maxTotal);
  if (search.withBalance) where.add(OPEN_INVOICE);
  return {
    select: `select id, account_id, livemode, merchant_id, type, kind, status, serie, folio, folio_text, total, monto, saldo_pendiente, currency,
                    receiver, uuid, needs_reconciliation, files_status, stamped_at, created_at, updated_at
               from documents`,
    table: 'documents',
    scope,
    where,
    noun: 'document',
  };
}

const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/i;

export const documentSearchPage = (
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
  page: PageRequest,
): Promise<Page<DocumentRow>> => keysetPage<DocumentRow>(em, documentSearchList(scope, search), page);

/** What a ZIP export reads of a stamped document: where its files are, and its stamped XML. */
export type DocumentFilesRow = Pick<DocumentRow, 'id' | 'uuid' | 'merchant_id' | 'files' | 'stamped_xml'>;

/** The files and stamped XML of the tenant's documents `ids`, in one query (an export's batch). */
export function selectDocumentFiles(
  em: EntityManager,
  scope: Tenant,
  ids: string[],
): Promise<DocumentFilesRow[]> {
  return em.execute(
    `select id, uuid, merchant_id, files, stamped_xml from documents
      where account_id = ? and livemode = ? and id = any(?)`,
    [scope.accountId, scope.livemode, ids],
  );
}

export const documentSearchCount = (
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<RowCount> => keysetCount(em, documentSearchList(scope, search));

/** The search's count, uncapped. */
export async function documentSearchCountAll(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): Promise<number> {
  const where = documentSearchList(scope, search).where!;
  const [row] = await em.execute<{ count: string }[]>(
    `select count(*) from documents where account_id = ? and livemode = ? and ${where.clauses.join(' and ')}`,
    [scope.accountId, scope.livemode, ...where.params],
  );
  return Number(row!.count);
}

export type RelatedDocumentRow = Pick<
  DocumentRow,
  | 'id'
  | 'type'
  | 'kind'
  | 'status'
  | 'needs_reconciliation'
  | 'uuid'
  | 'total'
  | 'monto'
  | 'currency'
  | 'serie'
  | 'folio'
  | 'created_at'
>;

/** Documents related to one: its credit notes and payments (pointing at it), and the one it points at. */
export function selectRelatedDocuments(
  em: EntityManager,
  scope: Tenant,
  row: Pick<DocumentRow, 'id' | 'uuid' | 'invoice_id' | 'related_invoice_id'>,
): Promise<RelatedDocumentRow[]> {
  // Each way of being related through its own index (an OR of them would scan every account's documents).
  return em.execute(
    `select id, type, kind, status, needs_reconciliation, uuid, total, monto, currency, serie, folio, created_at from documents
      where account_id = ? and livemode = ? and id <> ? and status <> 'draft'
        and id in (select id from documents where invoice_id = ?
                   union all select id from documents where related_invoice_id = ?
                   union all select id from documents where related_uuid = ?
                   union all select unnest(array[?, ?]::text[]) collate "C")
      order by id`,
    [
      scope.accountId,
      scope.livemode,
      row.id,
      row.id,
      row.id,
      row.uuid,
      row.invoice_id,
      row.related_invoice_id,
    ],
  );
}

/**
 * Aging buckets of what customers still owe, by whole days since the invoice was stamped (its issue), counted in
 * Mexico City dates: 0–30, 31–60, 61–90 and over 90. `upTo` is the bucket's last day; the last bucket has none.
 */
export const AGING_BUCKETS = [
  { key: 'd0_30', upTo: 30 },
  { key: 'd31_60', upTo: 60 },
  { key: 'd61_90', upTo: 90 },
  { key: 'd90_plus', upTo: null },
] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number]['key'];

/** An open invoice's balance in MXN: its currency's balance times its TipoCambio (absent, 1, for MXN). */
const SALDO_MXN = `(saldo_pendiente * coalesce((input->>'tipoCambio')::numeric, 1))`;

/** Days from the issue (Mexico City date of `stamped_at`) to `asOf`'s Mexico City date. */
const DAYS_SINCE_ISSUE = `((?::timestamptz at time zone '${MEXICO_CITY}')::date - (stamped_at at time zone '${MEXICO_CITY}')::date)`;

export type ReceivableRow = Record<AgingBucket, string> & {
  rfc: string;
  name: string;
  invoices: string;
  total: string;
};

/** Outstanding balances per receiver RFC with their aging, largest first, summed in the database. */
export function selectReceivablesAging(
  em: EntityManager,
  scope: Scope,
  asOf: Date,
): Promise<ReceivableRow[]> {
  const params: unknown[] = [];
  const bucketColumns = AGING_BUCKETS.map((bucket, i) => {
    const lower = i === 0 ? null : AGING_BUCKETS[i - 1]!.upTo;
    const conditions = [
      ...(lower === null ? [] : [`${DAYS_SINCE_ISSUE} > ${lower}`]),
      ...(bucket.upTo === null ? [] : [`${DAYS_SINCE_ISSUE} <= ${bucket.upTo}`]),
    ];
    conditions.forEach(() => params.push(asOf.toISOString()));
    return `round(coalesce(sum(${SALDO_MXN}) filter (where ${conditions.join(' and ')}), 0), 2)::text as ${bucket.key}`;
  });
  return em.execute(
    `select receiver->>'rfc' as rfc, max(receiver->>'name') as name, count(*)::text as invoices,
              round(sum(${SALDO_MXN}), 2)::text as total, ${bucketColumns.join(', ')}
         from documents
        where account_id = ? and livemode = ? and ${OPEN_INVOICE}${scope.merchantIds ? ' and merchant_id = any(?)' : ''}
        group by receiver->>'rfc'
        order by sum(${SALDO_MXN}) desc, receiver->>'rfc'
        limit 500`,
    [...params, scope.accountId, scope.livemode, ...(scope.merchantIds ? [scope.merchantIds] : [])],
  );
}
