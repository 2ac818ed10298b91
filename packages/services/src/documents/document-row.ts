import type { EntityManager } from '@cfdi/db';
import { NotFoundError } from '../errors';
import type { LedgerScope } from '../ledger';
import {
  selectDocument,
  selectDocumentWithMerchantColumns,
  selectScopedDocument,
  type DocumentRow,
  type DocumentType,
} from './repository';

export {
  DOCUMENT_ID_PREFIX,
  type DocumentRow,
  type DocumentStatus,
  type DocumentType,
  type FilesStatus,
} from './repository';

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
  const row = await selectScopedDocument(em, scope, id, type);
  if (!row) throw new NotFoundError(type ?? 'document', id);
  return row;
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
  const found = await selectDocumentWithMerchantColumns(em, id);
  if (!found) throw new NotFoundError('document', id);
  const {
    merchant_csd_serial,
    merchant_logo_key,
    merchant_brand_color,
    merchant_pdf_note,
    merchant_auto_email,
    ...row
  } = found;
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
  const row = await selectDocument(em, id);
  if (!row) throw new NotFoundError('document', id);
  return row;
}

export const money = (value: string | null): number | null => (value === null ? null : Number(value));
