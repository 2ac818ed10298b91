import { newId, type EntityManager } from '@cfdi/db';
import { retrieveConsoleUser, type ConsoleUserView } from '../console-users';
import { randomToken, tokenHash } from '../oauth/random-token';

/** A console session lasts a working day; signing out, disabling the user or an admin's revocation ends it sooner. */
const CONSOLE_SESSION_HOURS = 12;

export interface ConsoleSession {
  id: string;
  user: ConsoleUserView;
}

/** Starts a session; the token goes into the cookie and only its sha256 is stored. */
export async function createConsoleSession(
  em: EntityManager,
  userId: string,
  from: { ip: string | null; userAgent: string | null },
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const token = randomToken('cs_');
  const id = newId('cs');
  const rows: { expires_at: Date }[] = await em.execute(
    `insert into console_sessions (id, token_hash, console_user_id, ip, user_agent, expires_at)
     values (?, ?, ?, ?, ?, now() + interval '${CONSOLE_SESSION_HOURS} hours') returning expires_at`,
    [id, tokenHash(token), userId, from.ip, from.userAgent?.slice(0, 300) ?? null],
  );
  return { id, token, expiresAt: new Date(rows[0]!.expires_at) };
}

/** The live session of a cookie token: unknown, expired, revoked or of a disabled user is null. */
export async function retrieveConsoleSession(
  em: EntityManager,
  token: string,
): Promise<ConsoleSession | null> {
  const rows: { id: string; console_user_id: string }[] = await em.execute(
    `update console_sessions set last_seen_at = now()
      where token_hash = ? and revoked_at is null and expires_at > now() returning id, console_user_id`,
    [tokenHash(token)],
  );
  if (!rows[0]) return null;
  const user = await retrieveConsoleUser(em, rows[0].console_user_id);
  return user ? { id: rows[0].id, user } : null;
}

export async function revokeConsoleSession(em: EntityManager, token: string): Promise<void> {
  await em.execute(
    'update console_sessions set revoked_at = coalesce(revoked_at, now()) where token_hash = ?',
    [tokenHash(token)],
  );
}
