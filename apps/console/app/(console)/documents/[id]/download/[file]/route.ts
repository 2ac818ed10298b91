import {
  AppError,
  documentDownload,
  DOWNLOADABLE_FILES,
  retrieveScopedDocument,
  type DownloadableFile,
} from '@cfdi/services';
import { documentFileResponse } from '@cfdi/next-app';
import { em, platform } from '../../../../../../src/platform';
import { currentSession } from '../../../../../../src/session';
import { currentWorkspace } from '../../../../../../src/workspace';

export const dynamic = 'force-dynamic';

/** A document's XML, PDF, ZIP or acuse, read from the same storage the API's signed URLs serve. */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ id: string; file: string }> },
): Promise<Response> {
  const { id, file } = await params;
  if (!(await currentSession())) return new Response('Sign in first.', { status: 401 });
  if (!(DOWNLOADABLE_FILES as readonly string[]).includes(file))
    return new Response('Not found.', { status: 404 });
  const { scope } = await currentWorkspace();
  if (!scope) return new Response('Not found.', { status: 404 });
  let download;
  try {
    download = documentDownload(
      await retrieveScopedDocument(await em(), scope, id),
      file as DownloadableFile,
    );
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
  if (!download) return new Response('Not found.', { status: 404 });
  return documentFileResponse(await platform(), download, 404);
}
