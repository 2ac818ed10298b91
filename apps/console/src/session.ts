import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { retrieveConsoleSession, type ConsoleSession } from '@cfdi/services';
import { em } from './platform';

export const SESSION_COOKIE = 'cfdi_session';
/** Set by middleware.ts: where an expired session was going, so signing in again brings the user back. */
export const PATH_HEADER = 'x-console-path';

/** The client's address as the proxy in front (or Next's own server) reports it; for throttling and the audit log. */
export async function clientIp(): Promise<string> {
  const forwarded = (await headers()).get('x-forwarded-for');
  return forwarded?.split(',')[0]?.trim() || 'unknown';
}

/** Secure everywhere but plain-HTTP localhost, where browsers would drop a Secure cookie. */
export async function cookieIsSecure(): Promise<boolean> {
  const host = (await headers()).get('host') ?? '';
  return !/^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(host);
}

export async function currentSession(): Promise<ConsoleSession | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return token ? retrieveConsoleSession(await em(), token) : null;
}

/** The signed-in session, or back to the login page (remembering the page) when it is missing, expired or revoked. */
export async function requireSession(): Promise<ConsoleSession> {
  const session = await currentSession();
  if (session) return session;
  const path = (await headers()).get(PATH_HEADER) ?? '/';
  redirect(`/login?expired=1&next=${encodeURIComponent(path)}`);
}
