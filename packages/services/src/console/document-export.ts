import { zipStream } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { csvLine } from '../csv';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';
import { documentAmount } from '../documents/document-view';
import type { DocumentRow } from '../documents/document-row';
import { selectDocumentFiles, type DocumentFilesRow } from '../documents/repository';
import { NotFoundError } from '../errors';
import { searchDocuments, type DocumentSearch } from './document-search';

/** Rows read per query: an export of any size holds one batch in memory at a time. */
const BATCH = 200;

/** Every document the search finds, newest first, read in keyset batches (the list's own pagination). */
export async function* documentsToExport(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
): AsyncGenerator<DocumentRow> {
  let startingAfter: string | undefined;
  for (;;) {
    const page = await searchDocuments(em, scope, { ...search, startingAfter }, BATCH);
    yield* page.rows;
    if (!page.hasMore || page.rows.length === 0) return;
    startingAfter = page.rows[page.rows.length - 1]!.id;
  }
}

/** A month (YYYY-MM) as the search's inclusive Mexico City dates. */
export function monthRange(month: string): { from: string; to: string } | null {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!match) return null;
  const last = new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

const DOCUMENT_CSV_COLUMNS = [
  'id',
  'createdAt',
  'type',
  'kind',
  'status',
  'serieFolio',
  'uuid',
  'receiverRfc',
  'receiverName',
  'currency',
  'amount',
  'outstandingBalance',
  'merchantId',
];

// Made once: a formatter with a time zone costs about 0.2 ms to construct, a 10,000-row export would pay it per row.
const LOCAL_TIME = new Intl.DateTimeFormat('sv-SE', {
  timeZone: MEXICO_CITY,
  dateStyle: 'short',
  timeStyle: 'medium',
});

const localTime = (value: Date | string) =>
  LOCAL_TIME.format(
    new Date(value instanceof Date ? value : value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')),
  );

/**
 * The documents CSV, line by line: amounts in pesos (a payment complement's amount paid, not its CFDI total of 0),
 * times as Mexico City's wall clock, serie-folio as printed.
 */
export async function* documentsCsv(rows: AsyncIterable<DocumentRow>): AsyncGenerator<string> {
  yield csvLine(DOCUMENT_CSV_COLUMNS);
  for await (const row of rows)
    yield csvLine([
      row.id,
      localTime(row.created_at),
      row.type,
      row.kind ?? '',
      row.status,
      `${row.serie}-${row.folio_text ?? row.folio ?? ''}`,
      row.uuid,
      row.receiver.rfc,
      row.receiver.name,
      row.currency,
      documentAmount(row),
      row.type === 'invoice' ? row.saldo_pendiente : null,
      row.merchant_id,
    ]);
}

/** Where the ZIP's files come from: storage, and a renderer of the PDFs not stored yet. */
export interface ExportFileReader {
  /** A stored file's bytes, or null when it is not stored. */
  read(key: string): Promise<Buffer | null>;
  /** The PDF (its key: `key`) of a stamped document whose PDF is not rendered yet; null when none can be made. */
  renderPdf(row: DocumentFilesRow, key: string): Promise<Buffer | null>;
}

/** Documents whose files are read with one query. */
const FILES_BATCH = 100;
/** Stored PDFs read ahead of the entry being written: the reads wait on the disk (or S3) while entries are made. */
const READ_AHEAD = 16;

async function* batches<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** `read` of each item, in order, with up to `depth` reads under way ahead of the one consumed. */
async function* readAhead<T, R>(
  items: T[],
  depth: number,
  read: (item: T) => Promise<R>,
): AsyncGenerator<[T, R]> {
  const pending: Promise<R>[] = [];
  const start = (item: T) => {
    const reading = read(item);
    reading.catch(() => undefined); // rejected when awaited in turn, not as an unhandled rejection before
    pending.push(reading);
  };
  items.slice(0, depth).forEach(start);
  for (let i = 0; i < items.length; i++) {
    if (i + depth < items.length) start(items[i + depth]!);
    yield [items[i]!, await pending[i]!];
  }
}

/**
 * The ZIP's entries, one document at a time: each stamped document's `<UUID>.xml` and `<UUID>.pdf` (the XML alone
 * for a kind that does not print). A document with no timbre has no fiscal file to export and is skipped. The XML is
 * the row's stamped XML (what the files code stores and serves), read with the batch's rows; the PDF is the stored
 * one, or rendered now when it is not stored yet.
 */
export async function* documentZipEntries(
  em: EntityManager,
  scope: Scope,
  rows: AsyncIterable<DocumentRow>,
  files: ExportFileReader,
): AsyncGenerator<{ name: string; content: Buffer; store: boolean }> {
  for await (const batch of batches(rows, FILES_BATCH)) {
    const stamped = batch.filter((row) => row.uuid).map((row) => row.id);
    const loaded = new Map((await selectDocumentFiles(em, scope, stamped)).map((row) => [row.id, row]));
    const storedPdf = async (id: string) => {
      const key = loaded.get(id)?.files?.pdf;
      return key ? files.read(key) : null;
    };
    for await (const [id, stored] of readAhead(stamped, READ_AHEAD, storedPdf)) {
      const row = loaded.get(id);
      if (!row?.uuid) throw new NotFoundError('document', id);
      const xml = row.stamped_xml
        ? Buffer.from(row.stamped_xml, 'utf8')
        : row.files?.xml && (await files.read(row.files.xml));
      if (!xml) throw new Error(`the xml of ${id} is not available`);
      yield { name: `${row.uuid}.xml`, content: xml, store: false };
      if (!row.files?.pdf) continue;
      const pdf = stored ?? (await files.renderPdf(row, row.files.pdf));
      if (!pdf) throw new Error(`the pdf of ${id} is not available`);
      // The PDF's streams are deflated already: stored, not compressed again.
      yield { name: `${row.uuid}.pdf`, content: pdf, store: true };
    }
  }
}

/** The search's stamped documents as one streamed ZIP of their XML and PDF. */
export function documentsZip(
  em: EntityManager,
  scope: Scope,
  search: DocumentSearch,
  files: ExportFileReader,
): NodeJS.ReadableStream {
  return zipStream(documentZipEntries(em, scope, documentsToExport(em, scope, search), files));
}
