import 'server-only';
import { notFound } from 'next/navigation';
import { can, type ConsoleAction } from '@cfdi/services';
import { requireSession } from './session';

/** Pages of other roles do not exist for this user (404), as another account's documents do not. */
export async function requirePermission(action: ConsoleAction) {
  const session = await requireSession();
  if (!can(session.user, action)) notFound();
  return session;
}
