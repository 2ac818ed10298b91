import { newId, type EntityManager } from '@cfdi/db';
import { retrieveConsoleUser, type ConsoleUserView } from '../console-users';
import { randomToken, tokenHash } from '../oauth/random-token';
import {
  insertConsoleSession,
  revokeConsoleSessionByToken,
  touchConsoleSession,
} from '../console-users/console-user-repository';

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
  const expiresAt = await insertConsoleSession(
    em,
    {
      id,
      token_hash: tokenHash(token),
      console_user_id: userId,
      ip: from.ip,
      user_agent: from.userAgent?.slice(0, 300) ?? null,
    },
    CONSOLE_SESSION_HOURS,
  );
  return { id, token, expiresAt };
}

/** The live session of a cookie token: unknown, expired, revoked or of a disabled user is null. */
export async function retrieveConsoleSession(
  em: EntityManager,
  token: string,
): Promise<ConsoleSession | null> {
  const session = await touchConsoleSession(em, tokenHash(token));
  if (!session) return null;
  const user = await retrieveConsoleUser(em, session.console_user_id);
  return user ? { id: session.id, user } : null;
}

export async function revokeConsoleSession(em: EntityManager, token: string): Promise<void> {
  await revokeConsoleSessionByToken(em, tokenHash(token));
}
