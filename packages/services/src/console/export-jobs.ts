import { renderPdf, zipEnd, zipEntryBytes, ZIP_MAX_ENTRIES, type PdfLook } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { FileStorage } from '@cfdi/storage';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import { loadPdfLook } from '../merchants/pdf-look';
import { countAllDocuments, searchDocuments, type DocumentSearch } from './document-search';
import { documentsCsv, documentZipEntries, type ExportFileReader } from './document-export';
import {
  insertExport,
  markExportFailed,
  markExportReady,
  selectExport,
  selectLatestExports,
  updateExportProgress,
  type DocumentExportRow,
  type ExportFormat,
} from './export-repository';

/**
 * Exports too large to stream in one response (see `exportStreamMaxDocuments`) are built by a workflow: the rows are
 * read a part at a time, each part stored on its own (the CSV's lines, or the ZIP's entries and their directory
 * records) so a part written again after a worker restart replaces itself, and the parts are then streamed into
 * one file. Memory holds one part, whatever the export's size.
 */
export type { DocumentExportRow, ExportFormat, ExportStatus } from './export-repository';

const CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', zip: 'application/zip' } as const;

const exportFolder = (row: Pick<DocumentExportRow, 'id' | 'account_id' | 'livemode'>) =>
  `${row.account_id}/${row.livemode ? 'live' : 'test'}/exports/${row.id}`;
const partKey = (row: DocumentExportRow, part: number, kind: 'data' | 'directory') =>
  `${exportFolder(row)}/parts/${String(part).padStart(5, '0')}-${kind}`;
/** The file's name as downloaded. */
export const exportFileName = (row: Pick<DocumentExportRow, 'id' | 'format' | 'livemode'>) =>
  `documents-${row.id}-${row.livemode ? 'live' : 'test'}.${row.format}`;

/** The scope the export was asked in, so it holds exactly what its user could list. */
const exportScope = (row: DocumentExportRow): Scope => ({
  accountId: row.account_id,
  livemode: row.livemode,
  keyId: row.requested_by ?? 'console',
  merchantIds: row.merchant_ids,
});

/** Records an export of the search's documents, counted now (the progress's total); the caller starts its workflow. */
export async function createDocumentExport(
  em: EntityManager,
  scope: Scope,
  input: { format: ExportFormat; search: DocumentSearch; requestedBy: string | null },
): Promise<DocumentExportRow> {
  const search = { ...input.search, startingAfter: undefined };
  const total = await countAllDocuments(em, scope, search);
  if (input.format === 'zip' && total * 2 > ZIP_MAX_ENTRIES)
    throw ValidationError.field(
      '/month',
      `A ZIP holds up to ${Math.floor(ZIP_MAX_ENTRIES / 2)} documents: narrow the filter.`,
    );
  return insertExport(em, scope, { format: input.format, search, total, requested_by: input.requestedBy });
}

/** One export of the scope; another account's or mode's is as absent as a missing one. */
export async function retrieveDocumentExport(
  em: EntityManager,
  scope: Scope,
  id: string,
): Promise<DocumentExportRow> {
  const row = await selectExport(em, id, scope);
  if (!row) throw new NotFoundError('export', id);
  return row;
}

/** The scope's latest exports, newest first. */
export async function listDocumentExports(
  em: EntityManager,
  scope: Scope,
  limit = 20,
): Promise<DocumentExportRow[]> {
  return selectLatestExports(em, scope, limit);
}

async function loadExport(em: EntityManager, id: string): Promise<DocumentExportRow> {
  const row = await selectExport(em, id);
  if (!row) throw new NotFoundError('export', id);
  return row;
}

/** What building an export needs: storage (read, streamed write) and the parts' sizes. */
export interface DocumentExportDeps {
  storage: FileStorage;
  /** ZIP documents per part (config EXPORT_PART_DOCUMENTS): about 6 MB of XML and PDF in memory at 100. */
  partDocuments: number;
  /** CSV rows per part (config EXPORT_CSV_PART_ROWS): a row is about 200 bytes, its document row a few KB. */
  csvPartRows: number;
}

/** Where a part starts: the rows after `startingAfter`, the ZIP's bytes and entries so far, the documents read. */
export interface ExportPartState {
  part: number;
  startingAfter: string | null;
  /** ZIP: bytes of the parts before this one (this part's first entry's offset). */
  offset: number;
  entries: number;
  /** ZIP: bytes of the central directory so far. */
  directoryBytes: number;
  processed: number;
}

export interface ExportPartResult extends ExportPartState {
  done: boolean;
}

/**
 * Writes part `state.part`: the next rows of the search as CSV lines, or as the ZIP's entries (each stamped
 * document's XML, and its PDF, rendered now when it was not yet). Repeatable: the same state writes the same bytes
 * under the same keys. `beat` is called per ZIP entry (the activity's heartbeat).
 */
export async function writeExportPart(
  em: EntityManager,
  deps: DocumentExportDeps,
  exportId: string,
  state: ExportPartState,
  beat: () => void = () => undefined,
): Promise<ExportPartResult> {
  const row = await loadExport(em, exportId);
  const scope = exportScope(row);
  const page = await searchDocuments(
    em,
    scope,
    { ...row.search, startingAfter: state.startingAfter ?? undefined },
    row.format === 'csv' ? deps.csvPartRows : deps.partDocuments,
  );
  const next = {
    part: state.part + 1,
    startingAfter: page.rows.at(-1)?.id ?? state.startingAfter,
    processed: state.processed + page.rows.length,
    done: !page.hasMore || page.rows.length === 0,
  };
  if (row.format === 'csv') {
    const lines: string[] = [];
    for await (const line of documentsCsv(rowsOf(page.rows))) lines.push(line);
    // The header once, at the top of the first part.
    const body = Buffer.from((state.part === 0 ? lines : lines.slice(1)).join(''), 'utf8');
    await deps.storage.put(partKey(row, state.part, 'data'), body, CONTENT_TYPES.csv);
    await recordProgress(em, row.id, next.processed);
    return { ...state, ...next, offset: state.offset + body.length };
  }
  // Every entry carries the export's time: a part written again is byte for byte the same.
  const createdAt = new Date(
    String(row.created_at)
      .replace(' ', 'T')
      .replace(/([+-]\d\d)$/, '$1:00'),
  );
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = state.offset;
  const files = exportFileReader(em, deps.storage, scope, createdAt);
  for await (const entry of documentZipEntries(em, scope, rowsOf(page.rows), files)) {
    beat();
    const bytes = zipEntryBytes(entry, offset, createdAt);
    locals.push(bytes.local);
    centrals.push(bytes.central);
    offset += bytes.local.length;
  }
  const directory = Buffer.concat(centrals);
  await deps.storage.put(partKey(row, state.part, 'data'), Buffer.concat(locals), CONTENT_TYPES.zip);
  await deps.storage.put(partKey(row, state.part, 'directory'), directory, CONTENT_TYPES.zip);
  await recordProgress(em, row.id, next.processed);
  return {
    ...state,
    ...next,
    offset,
    entries: state.entries + centrals.length,
    directoryBytes: state.directoryBytes + directory.length,
  };
}

/**
 * Stored files, and the PDFs not rendered yet rendered from the stamped XML with the merchant's look as it is now
 * (read once per merchant and part), dated `createdAt` so that a part written again holds the same bytes. Such a PDF
 * is only put in the ZIP: storing it (and the document's ZIP a first download makes) would cost more than rendering
 * it, for a file the integrator may never ask for alone.
 */
function exportFileReader(
  em: EntityManager,
  storage: FileStorage,
  scope: Scope,
  createdAt: Date,
): ExportFileReader {
  const looks = new Map<string, Promise<PdfLook>>();
  return {
    read: async (key) => (await storage.get(key))?.bytes ?? null,
    async renderPdf(row) {
      if (!row.stamped_xml) return null;
      let look = looks.get(row.merchant_id);
      if (!look) {
        look = loadPdfLook(em, storage, scope, row.merchant_id);
        looks.set(row.merchant_id, look);
      }
      return renderPdf(row.stamped_xml, { ...(await look), createdAt });
    },
  };
}

async function* rowsOf<T>(rows: T[]): AsyncGenerator<T> {
  yield* rows;
}

/** Progress only goes forward: a part written again after a restart does not count its documents twice. */
async function recordProgress(em: EntityManager, id: string, processed: number): Promise<void> {
  await updateExportProgress(em, id, processed);
}

/**
 * Streams the parts into the export's one file (the ZIP's entries, then its directory and end record), marks the
 * export ready and deletes the parts. Repeatable: the parts stay until the file is stored.
 */
export async function finishDocumentExport(
  em: EntityManager,
  deps: Pick<DocumentExportDeps, 'storage'>,
  exportId: string,
  state: ExportPartState,
): Promise<{ key: string; bytes: number }> {
  const row = await loadExport(em, exportId);
  if (row.status === 'ready' && row.file_key) return { key: row.file_key, bytes: Number(row.bytes) };
  const read = async (part: number, kind: 'data' | 'directory') => {
    const file = await deps.storage.get(partKey(row, part, kind));
    if (!file) throw new Error(`part ${part} of export ${row.id} is missing`);
    return file.bytes;
  };
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let part = 0; part < state.part; part++) yield await read(part, 'data');
    if (row.format === 'csv') return;
    for (let part = 0; part < state.part; part++) yield await read(part, 'directory');
    yield zipEnd(state.entries, state.directoryBytes, state.offset);
  }
  const key = `${exportFolder(row)}/${exportFileName(row)}`;
  const bytes = await deps.storage.putStream(key, chunks(), CONTENT_TYPES[row.format]);
  await markExportReady(em, row.id, key, bytes);
  for (let part = 0; part < state.part; part++) {
    await deps.storage.delete(partKey(row, part, 'data'));
    if (row.format === 'zip') await deps.storage.delete(partKey(row, part, 'directory'));
  }
  return { key, bytes };
}

/** The export could not be built (its attempts ran out): shown as failed with the reason. */
export async function failDocumentExport(em: EntityManager, exportId: string, reason: string): Promise<void> {
  await markExportFailed(em, exportId, reason.slice(0, 500));
}
