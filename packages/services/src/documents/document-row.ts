import type { EntityManager } from '@cfdi/db';
import { NotFoundError } from '../errors';
import type { LedgerScope } from '../ledger';

export type DocumentType = 'invoice' | 'payment' | 'nomina';
export type DocumentStatus = 'stamping' | 'stamped' | 'stamp_failed' | 'cancel_pending' | 'cancelled';
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
  folio: string;
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
  num_parcialidad: number | null;
  monto: string | null;
  fecha_pago: string | null;
  saldo_anterior: string | null;
  saldo_insoluto: string | null;
  input: Record<string, unknown>;
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

/** Loads a document of the scope; another account's or mode's document is simply not found. */
export async function loadDocument(em: EntityManager, scope: LedgerScope, id: string, type?: DocumentType): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute(
    `select * from documents where id = ? and account_id = ? and livemode = ?${type ? ' and type = ?' : ''}`,
    type ? [id, scope.accountId, scope.livemode, type] : [id, scope.accountId, scope.livemode],
  );
  if (!rows[0]) throw new NotFoundError(type ?? 'document', id);
  return rows[0];
}

/** Loads by id alone: for workers, which act on behalf of whoever created the document. */
export async function loadDocumentById(em: EntityManager, id: string): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute('select * from documents where id = ?', [id]);
  if (!rows[0]) throw new NotFoundError('document', id);
  return rows[0];
}

export const money = (value: string | null): number | null => (value === null ? null : Number(value));
