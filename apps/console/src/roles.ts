import 'server-only';
import { notFound } from 'next/navigation';
import type { ConsoleUserView } from '@cfdi/services';
import { requireSession } from './session';

/** Pages of other roles do not exist for this user (404), as another account's documents do not. */
export async function requireRole(...roles: ConsoleUserView['role'][]) {
  const session = await requireSession();
  if (!roles.includes(session.user.role)) notFound();
  return session;
}
