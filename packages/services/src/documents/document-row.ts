import type { EntityManager, IdPrefix } from '@cfdi/db';
import { NotFoundError } from '../errors';
import type { LedgerScope } from '../ledger';

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

/**
 * A document as its views read it: the row without its XML bodies. A stamp's outcome carries one from the recording to
 * the API's answer through Temporal (see `toDocumentRecord`), so views never need the XML.
 */
export type DocumentRecord = Omit<DocumentRow, 'sealed_xml' | 'stamped_xml'>;

/** Loads a document of the scope; another account's or mode's document is simply not found. */
export async function loadDocument(
  em: EntityManager,
  scope: LedgerScope,
  id: string,
  type?: DocumentType,
): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute(
    `select * from documents where id = ? and account_id = ? and livemode = ?${type ? ' and type = ?' : ''}`,
    type ? [id, scope.accountId, scope.livemode, type] : [id, scope.accountId, scope.livemode],
  );
  if (!rows[0]) throw new NotFoundError(type ?? 'document', id);
  return rows[0];
}

/**
 * What sealing and rendering need from the merchant, read with the document so the stamp path does not ask again:
 * the serial of its current CSD (the key of the worker's opened-key cache) and the storage key of its logo.
 */
export interface MerchantRefs {
  csd_serial: string | null;
  logo_key: string | null;
  /** The rest of its PDF look (see loadPdfLook). */
  brand_color: string | null;
  pdf_note: string | null;
  /**
   * Whether the document's automatic e-mail is on: its saved customer's setting, else the merchant's (as
   * `queueAutomaticEmail` decides). When off, the stamp workflow schedules no e-mail step at all.
   */
  auto_email: boolean;
}

export type DocumentWithMerchantRefs = DocumentRow & { merchant: MerchantRefs };

/** The merchant references a row carries, when it was read with them. */
export const merchantRefsOf = (row: DocumentRow): MerchantRefs | undefined =>
  (row as Partial<DocumentWithMerchantRefs>).merchant;

/** Loads by id with its merchant's references, in one query: the start of a stamp. */
export async function loadDocumentWithMerchantRefs(
  em: EntityManager,
  id: string,
): Promise<DocumentWithMerchantRefs> {
  const rows: (DocumentRow & {
    merchant_csd_serial: string | null;
    merchant_logo_key: string | null;
    merchant_brand_color: string | null;
    merchant_pdf_note: string | null;
    merchant_auto_email: boolean | null;
  })[] = await em.execute(
    `select d.*, c.serial_number as merchant_csd_serial, m.logo_key as merchant_logo_key,
              m.brand_color as merchant_brand_color, m.pdf_note as merchant_pdf_note,
              coalesce(cu.auto_email, m.auto_email) as merchant_auto_email
       from documents d left join merchants m on m.id = d.merchant_id left join merchant_csds c on c.merchant_id = d.merchant_id
            left join customers cu on cu.id = d.customer_id and cu.deleted_at is null
      where d.id = ?`,
    [id],
  );
  if (!rows[0]) throw new NotFoundError('document', id);
  const {
    merchant_csd_serial,
    merchant_logo_key,
    merchant_brand_color,
    merchant_pdf_note,
    merchant_auto_email,
    ...row
  } = rows[0];
  return {
    ...row,
    merchant: {
      csd_serial: merchant_csd_serial,
      logo_key: merchant_logo_key,
      brand_color: merchant_brand_color,
      pdf_note: merchant_pdf_note,
      auto_email: merchant_auto_email === true,
    },
  };
}

/** Loads by id alone: for workers, which act on behalf of whoever created the document. */
export async function loadDocumentById(em: EntityManager, id: string): Promise<DocumentRow> {
  const rows: DocumentRow[] = await em.execute('select * from documents where id = ?', [id]);
  if (!rows[0]) throw new NotFoundError('document', id);
  return rows[0];
}

export const money = (value: string | null): number | null => (value === null ? null : Number(value));
