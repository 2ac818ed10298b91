import { can, type ConsoleAction, type Scope } from '@cfdi/services';
import { currentSession } from './session';
import { currentWorkspace } from './workspace';

/**
 * The workspace's scope for a route that answers a file of one of its things: 401 without a session, 404 without an
 * account or the permission (a route outside a user's role is as absent as an unknown id).
 */
async function fileRouteScope(permission: ConsoleAction): Promise<Scope | Response> {
  const session = await currentSession();
  if (!session) return new Response('Sign in first.', { status: 401 });
  const { scope } = await currentWorkspace();
  if (!scope || !can(session.user, permission)) return new Response('Not found.', { status: 404 });
  return scope;
}

/**
 * A GET route that answers a file of one of the workspace's things by its id: the scope check of `fileRouteScope`,
 * then `answer` with the scope and the id.
 */
export function fileRoute(
  permission: ConsoleAction,
  answer: (scope: Scope, id: string) => Promise<Response>,
) {
  return async (_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> => {
    const { id } = await params;
    const scope = await fileRouteScope(permission);
    return scope instanceof Response ? scope : answer(scope, id);
  };
}

/** Bytes for the signed-in user only: never cached, never sniffed as another type. */
export function privateFile(bytes: Uint8Array | string, contentType: string, disposition?: string): Response {
  return new Response(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), {
    headers: {
      'content-type': contentType,
      ...(disposition ? { 'content-disposition': disposition } : {}),
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
