/** Inserting documents and drafts, promoting a draft, deleting one. */
import type { EntityManager } from '@cfdi/db';
import type { Tenant } from '../../scope';
import type { DocumentRow, DocumentType } from './rows';

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
