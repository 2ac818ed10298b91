import { NotFoundError, retrieveDocumentExport } from '@cfdi/services';
import { em, platform } from '../../../../../src/platform';
import { currentSession } from '../../../../../src/session';
import { currentWorkspace } from '../../../../../src/workspace';

export const dynamic = 'force-dynamic';

/**
 * A ready export's file: the browser is sent to a signed URL of the API's file route, made now (valid
 * SIGNED_URL_TTL_SECONDS), which streams it from storage. Another account's export is a 404, as a missing one.
 */
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('Not found.', { status: 404 });
  try {
    const job = await retrieveDocumentExport(await em(), scope, (await params).id);
    if (job.status !== 'ready' || !job.file_key) return new Response('Not ready.', { status: 409 });
    const url = (await platform()).fileUrls.url(job.file_key);
    return new Response(null, { status: 303, headers: { location: url, 'cache-control': 'no-store' } });
  } catch (error) {
    if (error instanceof NotFoundError) return new Response('Not found.', { status: 404 });
    throw error;
  }
}
