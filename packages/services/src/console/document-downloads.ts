import type { DocumentRow } from '../documents/document-row';

export const DOWNLOADABLE_FILES = ['xml', 'pdf', 'zip', 'acuse'] as const;
export type DownloadableFile = (typeof DOWNLOADABLE_FILES)[number];

const CONTENT_TYPES: Record<DownloadableFile, string> = {
  xml: 'application/xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  acuse: 'application/xml',
};

/** Where a document's file lives in storage and how to name it for the user, or null while it does not exist. */
export function documentDownload(
  row: Pick<DocumentRow, 'files' | 'cancellation' | 'uuid' | 'id'>,
  file: DownloadableFile,
): { key: string; filename: string; contentType: string } | null {
  const acuse = (row.cancellation as { acuse?: { xmlKey?: string } } | null)?.acuse;
  const key = file === 'acuse' ? acuse?.xmlKey : row.files?.[file];
  if (!key) return null;
  const base = row.uuid ?? row.id;
  return {
    key,
    filename: file === 'acuse' ? `${base}-acuse.xml` : `${base}.${file}`,
    contentType: CONTENT_TYPES[file],
  };
}
