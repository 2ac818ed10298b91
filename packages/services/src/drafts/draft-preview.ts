import { renderPdf } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { FileStorage } from '@cfdi/storage';
import { loadPdfLook } from '../merchants/pdf-look';
import type { Scope } from '../scope';
import { loadDraft } from './draft-row';

/**
 * A draft's PDF: its Comprobante built from the stored engine input (the tax engine's result, as its stamp will
 * carry it) and printed by the stamped PDF's renderer, marked "SIN VALIDEZ FISCAL", with no UUID, QR or seal.
 */
export async function renderDraftPreview(
  em: EntityManager,
  storage: Pick<FileStorage, 'get'>,
  scope: Scope,
  id: string,
  now: Date,
): Promise<Buffer> {
  const { row, kind } = await loadDraft(em, scope, id);
  const look = await loadPdfLook(em, storage, scope, row.merchant_id);
  return renderPdf(kind.buildXml(row.input, now), { ...look, preview: true });
}
