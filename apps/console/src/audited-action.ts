import 'server-only';
import {
  recordConsoleAudit,
  requirePermission,
  type ConsoleAction,
  type ConsoleSession,
} from '@cfdi/services';
import { em } from './platform';
import { clientIp, requireSession } from './session';

export interface AuditEntry {
  action: string;
  target?: string | null;
  accountId?: string | null;
  livemode?: boolean | null;
  detail?: Record<string, unknown> | null;
}

/**
 * The frame of every state-changing server action: a live session (Next checks the Origin of the POST against the
 * host, and the SameSite=Lax cookie is not sent cross-site, so a foreign page cannot act), the services' permission
 * check for `action` (a 403 ForbiddenError, which Next shows as its error page), the work, then one audit row saying
 * who did what, when and from where.
 */
export async function audited<T>(
  action: ConsoleAction,
  work: (session: ConsoleSession) => Promise<{ result: T; audit: AuditEntry | null }>,
): Promise<T> {
  const session = await requireSession();
  requirePermission(session.user, action);
  const { result, audit } = await work(session);
  if (audit) await recordConsoleAudit(await em(), { actor: session.user, ip: await clientIp(), ...audit });
  return result;
}
