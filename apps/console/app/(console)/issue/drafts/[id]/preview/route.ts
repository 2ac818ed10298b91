import { AppError, can, renderDraftPreview } from '@cfdi/services';
import { em, platform } from '../../../../../../src/platform';
import { currentSession } from '../../../../../../src/session';
import { currentWorkspace } from '../../../../../../src/workspace';

export const dynamic = 'force-dynamic';

/** The draft's PDF as its stamp would print it, marked "SIN VALIDEZ FISCAL", with no UUID, QR or seal. */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await params;
  const session = await currentSession();
  if (!session) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope || !can(session.user, 'documents.issue')) return new Response('Not found.', { status: 404 });
  try {
    const pdf = await renderDraftPreview(await em(), (await platform()).storage, scope, id, new Date());
    return new Response(new Uint8Array(pdf), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${id}-borrador.pdf"`,
        'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  } catch (error) {
    // Another account's draft, or a document no longer a draft: the services' 404 or 409.
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
}
