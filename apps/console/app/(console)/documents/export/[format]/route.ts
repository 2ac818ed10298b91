import { Readable } from 'node:stream';
import {
  AppError,
  countAllDocuments,
  createDocumentExport,
  documentsCsv,
  documentsToExport,
  documentsZip,
  monthRange,
  recordConsoleAudit,
  type DocumentSearch,
  type Scope,
} from '@cfdi/services';
import { startDocumentExport } from '@cfdi/temporal-contract/client';
import { em, platform } from '../../../../../src/platform';
import { documentSearchFrom, param, type SearchParams } from '../../../../../src/search-params';
import { clientIp, currentSession } from '../../../../../src/session';
import { currentWorkspace } from '../../../../../src/workspace';

export const dynamic = 'force-dynamic';

type Format = 'csv' | 'zip';
type Asked = { format: Format; scope: Scope; search: DocumentSearch; name: string };

/**
 * What is asked: the documents of the current filter, or of a month (`month=YYYY-MM`), as CSV or as a ZIP of their
 * XML and PDF. A Response when it cannot be answered (not signed in, a bad filter: 400, not a broken download).
 */
async function asked(format: string, query: SearchParams): Promise<Asked | Response> {
  if (format !== 'csv' && format !== 'zip') return new Response('Not found.', { status: 404 });
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('No account.', { status: 404 });
  const month = param(query, 'month');
  const range = month ? monthRange(month) : undefined;
  if (range === null) return new Response('month must be YYYY-MM.', { status: 400 });
  const search = { ...documentSearchFrom(query), ...range, startingAfter: undefined };
  const name = `documents-${month ?? 'filter'}-${scope.livemode ? 'live' : 'test'}`;
  return { format, scope, search, name };
}

/** How many documents the export holds; a Response for a filter the services refuse. */
async function counted({ scope, search }: Asked): Promise<number | Response> {
  try {
    return await countAllDocuments(await em(), scope, search);
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
}

/**
 * Streamed: rows are read in keyset batches and files one document at a time, so any size takes the same memory;
 * but one response carries the whole export, so only sets up to EXPORT_STREAM_MAX_DOCUMENTS are answered this way.
 */
async function streamed({ format, scope, search, name }: Asked): Promise<Response> {
  const manager = await em();
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
    read: async (key) => (await storage.get(key))?.bytes ?? null,
    // Rendered and stored as a first download of the PDF would.
    renderPdf: async (_row, key) => (await files.produce(await em(), key))?.bytes ?? null,
  });
  return new Response(Readable.toWeb(zip as Readable) as ReadableStream, {
    headers: headers('application/zip', 'zip'),
  });
}

/** A direct download (links, scripts): streamed when the set is small enough, refused otherwise. */
export async function GET(
  request: Request,
  { params }: { params: Promise<{ format: string }> },
): Promise<Response> {
  const what = await asked((await params).format, Object.fromEntries(new URL(request.url).searchParams));
  if (what instanceof Response) return what;
  const count = await counted(what);
  if (count instanceof Response) return count;
  if (count > (await platform()).config.exportStreamMaxDocuments)
    return new Response(
      `${count} documents: too many for a direct download. Export them from the documents page.`,
      { status: 413 },
    );
  return streamed(what);
}

/**
 * The documents page's export buttons: a small set streams at once; a larger one (over EXPORT_STREAM_MAX_DOCUMENTS)
 * is recorded and built by a workflow, and the browser goes to its page, which shows the progress and then the
 * download. SameSite=Lax keeps the session cookie off cross-site POSTs; the Origin is checked as well.
 */
export async function POST(
  request: Request,
  { params }: { params: Promise<{ format: string }> },
): Promise<Response> {
  const origin = request.headers.get('origin');
  if (origin && new URL(origin).host !== request.headers.get('host'))
    return new Response('Cross-site request refused.', { status: 403 });
  const form = await request.formData();
  const query = Object.fromEntries([...form].filter(([, v]) => typeof v === 'string')) as SearchParams;
  const what = await asked((await params).format, query);
  if (what instanceof Response) return what;
  const count = await counted(what);
  if (count instanceof Response) return count;
  const { config, temporal } = await platform();
  if (count <= config.exportStreamMaxDocuments) return streamed(what);
  const session = (await currentSession())!;
  const manager = await em();
  let job;
  try {
    job = await createDocumentExport(manager, what.scope, {
      format: what.format,
      search: what.search,
      requestedBy: session.user.id,
    });
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
  await startDocumentExport(temporal, job.id, config.temporal.taskQueue);
  await recordConsoleAudit(manager, {
    actor: session.user,
    ip: await clientIp(),
    action: 'documents.export',
    target: job.id,
    accountId: what.scope.accountId,
    livemode: what.scope.livemode,
    detail: { format: what.format, documents: count },
  });
  return new Response(null, { status: 303, headers: { location: `/exports/${job.id}` } });
}
