import { portalInvoiceFile, readPortalPass } from '@cfdi/services';
import { documentFileResponse } from '@cfdi/next-app';
import { em, platform } from '../../../../src/platform';

export const dynamic = 'force-dynamic';

/** The stamped XML or the PDF of the pass's invoice (the PDF rendered on its first download, as in the console). */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ token: string; file: string }> },
): Promise<Response> {
  const { token, file } = await params;
  if (file !== 'xml' && file !== 'pdf') return new Response('Not found.', { status: 404 });
  const pass = await readPortalPass((await platform()).redis, token);
  const download = pass && (await portalInvoiceFile(await em(), pass, file));
  if (!download) return new Response('Not found.', { status: 404 });
  return documentFileResponse(await platform(), download, 503);
}
