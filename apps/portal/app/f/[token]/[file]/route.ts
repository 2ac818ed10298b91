import { FileRenderFailedError, portalInvoiceFile, readPortalPass } from '@cfdi/services';
import { em, platform } from '../../../../src/platform';

export const dynamic = 'force-dynamic';

/** The stamped XML or the PDF of the pass's invoice (the PDF rendered on its first download, as in the console). */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ token: string; file: string }> },
): Promise<Response> {
  const { token, file } = await params;
  if (file !== 'xml' && file !== 'pdf') return new Response('Not found.', { status: 404 });
  const { redis, storage, files } = await platform();
  const pass = await readPortalPass(redis, token);
  const download = pass && (await portalInvoiceFile(await em(), pass, file));
  if (!download) return new Response('Not found.', { status: 404 });
  try {
    const stored = (await storage.get(download.key)) ?? (await files.produce(await em(), download.key));
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
        status: 503,
        headers: { 'retry-after': '30' },
      });
    throw error;
  }
}
