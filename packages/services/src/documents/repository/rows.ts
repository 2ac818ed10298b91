/** The `documents` row as raw queries return it, its types and statuses, and the id prefix per type. */
import type { IdPrefix } from '@cfdi/db';

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
