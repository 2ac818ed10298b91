import { buildZip, cfdiZipEntries, renderPdf, type PdfLook } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { loadDocumentById, type DocumentRow } from './document-row';
import { markFilesFailed, markFilesProcessing, markFilesReady } from './repository';
import { kindOf } from './kinds';

/** The part of a storage driver document files need (see @cfdi/storage). */
export interface FilePutter {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
}

export interface DocumentFilesDeps {
  storage: FilePutter;
  /** The merchant's PDF look as it is now: logo, brand colour, note (see `loadPdfLook`, `merchantRefsOf`). */
  loadLook(row: DocumentRow): Promise<PdfLook>;
}

export function documentFileKey(
  row: Pick<DocumentRow, 'account_id' | 'livemode' | 'id'>,
  name: string,
): string {
  return `${row.account_id}/${row.livemode ? 'live' : 'test'}/documents/${row.id}/${name}`;
}

export interface DocumentFileKeys {
  xml: string;
  pdf: string;
  zip: string;
}

/** Where a stamped document's three files are (or will be) stored. */
export function documentFileKeys(
  row: Pick<DocumentRow, 'account_id' | 'livemode' | 'id'>,
  uuid: string,
): DocumentFileKeys {
  return {
    xml: documentFileKey(row, `${uuid}.xml`),
    pdf: documentFileKey(row, `${uuid}.pdf`),
    zip: documentFileKey(row, `${uuid}.zip`),
  };
}

/**
 * The keys of a stamped document's files as its kind has them: XML, PDF and ZIP, or the XML alone for a kind that
 * does not print (no PDF or ZIP link is then given, and such a key is never produced).
 */
export function storedFileKeys(
  row: Pick<DocumentRow, 'account_id' | 'livemode' | 'id' | 'type' | 'kind'>,
  uuid: string,
): { xml: string; pdf?: string; zip?: string } {
  return kindOf(row).pdf ? documentFileKeys(row, uuid) : { xml: documentFileKey(row, `${uuid}.xml`) };
}

/** The PDF and ZIP of a stamped XML (the CPU-heavy part of a document's files). */
export async function renderPdfAndZip(
  uuid: string,
  stampedXml: string,
  look: PdfLook,
): Promise<{ pdf: Buffer; zip: Buffer }> {
  const pdf = await renderPdf(stampedXml, look);
  return { pdf, zip: await buildZip(cfdiZipEntries(uuid, stampedXml, pdf)) };
}

/**
 * Renders XML, PDF and ZIP of a stamped document into storage and marks the files ready. Repeatable: the same
 * keys are overwritten with the same content. On the last attempt a failure marks the files `failed`.
 */
export async function generateDocumentFiles(
  em: EntityManager,
  deps: DocumentFilesDeps,
  documentId: string,
  options: { markFailedOnError: boolean },
): Promise<void> {
  const row = await loadDocumentById(em, documentId);
  if (!row.stamped_xml || row.files_status === 'ready') return;
  try {
    await renderDocumentFiles(em, deps, row);
  } catch (error) {
    if (options.markFailedOnError) await markFilesFailed(em, documentId);
    throw error;
  }
}

/** The rendering itself, for a row already read with its stamped XML. */
async function renderDocumentFiles(
  em: EntityManager,
  deps: DocumentFilesDeps,
  row: DocumentRow,
): Promise<void> {
  if (!row.stamped_xml || !row.uuid) throw new Error(`document ${row.id} has no stamped XML`);
  if (row.files_status !== 'processing') {
    await markFilesProcessing(em, row.id);
  }
  const keys = storedFileKeys(row, row.uuid);
  await deps.storage.put(keys.xml, Buffer.from(row.stamped_xml, 'utf8'), 'application/xml');
  if (keys.pdf && keys.zip) {
    const { pdf, zip } = await renderPdfAndZip(row.uuid, row.stamped_xml, await deps.loadLook(row));
    await deps.storage.put(keys.pdf, pdf, 'application/pdf');
    await deps.storage.put(keys.zip, zip, 'application/zip');
  }
  await markFilesReady(em, row.id, JSON.stringify(keys));
}

/** How many concepts the document prints (the PDF's size driver); payments print one. */
export function conceptCount(row: Pick<DocumentRow, 'input'>): number {
  const items = (row.input as { items?: unknown[] } | null)?.items;
  return Array.isArray(items) ? items.length : 1;
}
