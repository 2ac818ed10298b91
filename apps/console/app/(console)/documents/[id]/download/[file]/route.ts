import {
  AppError,
  documentDownload,
  DOWNLOADABLE_FILES,
  FileRenderFailedError,
  retrieveScopedDocument,
  type DownloadableFile,
} from '@cfdi/services';
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
  try {
    const download = documentDownload(
      await retrieveScopedDocument(await em(), scope, id),
      file as DownloadableFile,
    );
    const { storage, files } = await platform();
    // Small documents' PDF and ZIP are rendered on their first download (the API's file URLs do the same).
    const stored =
      download && ((await storage.get(download.key)) ?? (await files.produce(await em(), download.key)));
    if (!download || !stored) return new Response('Not found.', { status: 404 });
    return new Response(new Uint8Array(stored.bytes), {
      headers: {
        'content-type': download.contentType,
        'content-disposition': `attachment; filename="${download.filename}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    if (error instanceof FileRenderFailedError)
      return new Response('This file could not be rendered just now; try again shortly.', {
        status: 404,
        headers: { 'retry-after': '30' },
      });
    throw error;
  }
}
