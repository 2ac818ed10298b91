import { can, loadMerchantLogo } from '@cfdi/services';
import { em, platform } from '../../../../../src/platform';
import { currentSession } from '../../../../../src/session';
import { currentWorkspace } from '../../../../../src/workspace';

export const dynamic = 'force-dynamic';

/** The merchant's stored logo, for its settings page (another account's merchant has none here: 404). */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await params;
  const session = await currentSession();
  if (!session) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope || !can(session.user, 'merchants.settings')) return new Response('Not found.', { status: 404 });
  if (scope.merchantIds && !scope.merchantIds.includes(id))
    return new Response('Not found.', { status: 404 });
  const logo = await loadMerchantLogo(await em(), (await platform()).storage, scope, id);
  if (!logo) return new Response('Not found.', { status: 404 });
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      'content-type': logo.contentType,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
