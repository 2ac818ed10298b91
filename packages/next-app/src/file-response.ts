import { FileRenderFailedError } from '@cfdi/services';
import type { Platform } from './platform';

/** Where a document's file is stored and how it is handed out. */
export interface FileDownload {
  key: string;
  filename: string;
  contentType: string;
}

/**
 * A document's file as an attachment for whoever the route let in: read from storage, or rendered now when it is a
 * small document's PDF or ZIP not rendered yet (the API's file URLs do the same). A file that is not there is a 404;
 * a render that failed just now answers `renderFailedStatus` with a Retry-After.
 */
export async function documentFileResponse(
  { storage, files, orm }: Platform,
  download: FileDownload,
  renderFailedStatus: number,
): Promise<Response> {
  try {
    const stored = (await storage.get(download.key)) ?? (await files.produce(orm.em.fork(), download.key));
    if (!stored) return new Response('Not found.', { status: 404 });
    return new Response(new Uint8Array(stored.bytes), {
      headers: {
        'content-type': download.contentType,
        'content-disposition': `attachment; filename="${download.filename}"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    if (error instanceof FileRenderFailedError)
      return new Response('This file could not be rendered just now; try again shortly.', {
        status: renderFailedStatus,
        headers: { 'retry-after': '30' },
      });
    throw error;
  }
}
