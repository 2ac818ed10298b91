import type { EntityManager } from '@cfdi/db';
import type { LedgerScope } from '../ledger';
import type { DocumentRow, DocumentType } from './document-row';

export interface NewDocument {
  id: string;
  type: DocumentType;
  kind?: 'nominal' | 'global' | 'credit_note' | null;
  merchantId: string;
  serie: string;
  folio: number;
  folioText: string | null;
  metodoPago?: string | null;
  formaPago?: string | null;
  usoCfdi?: string | null;
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
  reservationId: string;
}

export async function insertDocument(em: EntityManager, scope: LedgerScope, doc: NewDocument): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute(
    `insert into documents (id, account_id, livemode, merchant_id, type, kind, status, serie, folio, folio_text,
        metodo_pago, forma_pago, uso_cfdi, receiver, subtotal, discount, total, saldo_pendiente, tipo_relacion,
        related_uuid, related_invoice_id, invoice_id, num_parcialidad, monto, fecha_pago, saldo_anterior,
        saldo_insoluto, input, reservation_id)
     values (?, ?, ?, ?, ?, ?, 'stamping', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     returning *`,
    [
      doc.id, scope.accountId, scope.livemode, doc.merchantId, doc.type, doc.kind ?? null, doc.serie, doc.folio, doc.folioText,
      doc.metodoPago ?? null, doc.formaPago ?? null, doc.usoCfdi ?? null, JSON.stringify(doc.receiver), doc.subtotal,
      doc.discount, doc.total, doc.saldoPendiente ?? null, doc.tipoRelacion ?? null, doc.relatedUuid ?? null,
      doc.relatedInvoiceId ?? null, doc.invoiceId ?? null, doc.numParcialidad ?? null, doc.monto ?? null,
      doc.fechaPago ?? null, doc.saldoAnterior ?? null, doc.saldoInsoluto ?? null, JSON.stringify(doc.input), doc.reservationId,
    ],
  );
  return rows[0]!;
}
