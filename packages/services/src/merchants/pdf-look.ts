import type { PdfLook } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { FileStorage } from '@cfdi/storage';
import type { Scope } from '../scope';
import { loadPrintableLogo } from './logo';
import { selectMerchantLook, type MerchantLookRow } from './merchant-repository';

/** What a caller may already have read of the merchant (with a document, say), to spare the query. */
export type KnownLook = MerchantLookRow;

/**
 * Everything a merchant's PDFs print of its own: the printable logo, the brand colour and the note, as they are now.
 * Works for deleted merchants too (their historical documents are still rendered); an unknown merchant has the
 * default look.
 */
export async function loadPdfLook(
  em: EntityManager,
  storage: Pick<FileStorage, 'get'>,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  merchantId: string,
  known?: KnownLook,
): Promise<PdfLook> {
  const row = known ?? (await selectMerchantLook(em, scope, merchantId));
  if (!row) return {};
  const logo = await loadPrintableLogo(em, storage, scope, merchantId, row.logo_key);
  return {
    ...(logo ? { logo } : {}),
    ...(row.brand_color ? { brandColor: row.brand_color } : {}),
    ...(row.pdf_note ? { note: row.pdf_note } : {}),
  };
}
