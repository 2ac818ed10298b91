import { Readable } from 'node:stream';
import {
  AppError,
  documentsCsv,
  documentsToExport,
  documentsZip,
  monthRange,
  searchDocuments,
} from '@cfdi/services';
import { em, platform } from '../../../../../src/platform';
import { documentSearchFrom, param } from '../../../../../src/search-params';
import { currentSession } from '../../../../../src/session';
import { currentWorkspace } from '../../../../../src/workspace';

export const dynamic = 'force-dynamic';

/**
 * The documents of the current filter, or of a month (`month=YYYY-MM`), as CSV or as a ZIP of their XML and PDF.
 * Streamed: rows are read in keyset batches and files one document at a time, so any size takes the same memory.
 */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ format: string }> },
): Promise<Response> {
  const { format } = await params;
  if (format !== 'csv' && format !== 'zip') return new Response('Not found.', { status: 404 });
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('No account.', { status: 404 });
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const month = param(query, 'month');
  const range = month ? monthRange(month) : undefined;
  if (range === null) return new Response('month must be YYYY-MM.', { status: 400 });
  const search = { ...documentSearchFrom(query), ...range, startingAfter: undefined };
  const manager = await em();
  // The filter is checked before answering, so a bad one is a 400 and not a broken download.
  try {
    await searchDocuments(manager, scope, search, 1);
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
  const name = `documents-${month ?? 'filter'}-${scope.livemode ? 'live' : 'test'}`;
  const headers = (contentType: string, ext: string) => ({
    'content-type': contentType,
    'content-disposition': `attachment; filename="${name}.${ext}"`,
    'cache-control': 'private, no-store',
  });
  if (format === 'csv') {
    const lines = Readable.from(documentsCsv(documentsToExport(manager, scope, search)));
    return new Response(Readable.toWeb(lines) as ReadableStream, {
      headers: headers('text/csv; charset=utf-8', 'csv'),
    });
  }
  const { storage, files } = await platform();
  const zip = documentsZip(manager, scope, search, {
    read: async (key) => ((await storage.get(key)) ?? (await files.produce(await em(), key)))?.bytes ?? null,
  });
  return new Response(Readable.toWeb(zip as Readable) as ReadableStream, {
    headers: headers('application/zip', 'zip'),
  });
}
