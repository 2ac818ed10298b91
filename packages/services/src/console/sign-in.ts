import type { EntityManager } from '@cfdi/db';
import type { Redis } from 'ioredis';
import { signInConsoleUser, type ConsoleUserView } from '../console-users';
import { ForbiddenError } from '../errors';
import { recordConsoleAudit } from './audit';
import { clearLoginFailures, loginThrottledFor, recordLoginFailure } from './login-throttle';

/** Where a console user signs in; kept in the audit row's detail. */
export type SignInChannel = 'console' | 'oauth_consent';

export interface SignInAttempt {
  email: string;
  password: string;
  /** The client's address as the face determines it (the socket's, or a trusted proxy's report). */
  ip: string;
  channel: SignInChannel;
}

export type SignInOutcome<T> =
  | { ok: true; user: ConsoleUserView; opened: T }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }
  | { ok: false; reason: 'invalid' | 'locked' }
  /** The password was right but `open` refused the user (ForbiddenError); `message` is the face's own. */
  | { ok: false; reason: 'forbidden'; message: string };

/** Beyond these an attempt is refused unread: scrypt over a megabyte-long password is work for nothing. */
const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;

/**
 * The one sign-in policy for console users, whichever page they use: the throttle per address and per e-mail
 * (shared by every channel), the password with the per-user lock-out, then `open` (the face's session or pending
 * authorization, which may refuse the user with a ForbiddenError), and one audit row per attempt that got as far as
 * the password, with the address and the channel: `session.sign_in` (target: what `open` returned) or
 * `session.sign_in_failed` (reason: invalid, locked or forbidden). Wrong passwords and lock-outs count towards the
 * throttle; a throttled attempt is not audited (a flood of them must not fill the log; the failures that caused the
 * throttle are there).
 */
export async function signInWithPolicy<T extends { target: string | null }>(
  deps: { em: EntityManager; redis: Redis },
  attempt: SignInAttempt,
  open: (user: ConsoleUserView) => Promise<T>,
): Promise<SignInOutcome<T>> {
  const email = attempt.email.trim();
  const { password, ip, channel } = attempt;
  if (!email || !password || email.length > MAX_EMAIL || password.length > MAX_PASSWORD)
    return { ok: false, reason: 'invalid' };
  const retryAfterSeconds = await loginThrottledFor(deps.redis, email, ip);
  if (retryAfterSeconds > 0) return { ok: false, reason: 'throttled', retryAfterSeconds };

  const result = await signInConsoleUser(deps.em, email, password);
  if (!result.ok) {
    await recordLoginFailure(deps.redis, email, ip);
    await recordConsoleAudit(deps.em, {
      actor: { id: null, email },
      action: 'session.sign_in_failed',
      ip,
      detail: { channel, reason: result.reason },
    });
    return { ok: false, reason: result.reason };
  }
  let opened: T;
  try {
    opened = await open(result.user);
  } catch (error) {
    if (!(error instanceof ForbiddenError)) throw error;
    // The right password: no guess to throttle, but the refusal is audited under the user.
    await recordConsoleAudit(deps.em, {
      actor: result.user,
      action: 'session.sign_in_failed',
      ip,
      detail: { channel, reason: 'forbidden', message: error.message },
    });
    return { ok: false, reason: 'forbidden', message: error.message };
  }
  await clearLoginFailures(deps.redis, email);
  await recordConsoleAudit(deps.em, {
    actor: result.user,
    action: 'session.sign_in',
    target: opened.target,
    ip,
    detail: { channel },
  });
  return { ok: true, user: result.user, opened };
}
