import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { retrieveConsoleSession, type ConsoleSession } from '@cfdi/services';
import { clientAddress, proxyTrust } from '@cfdi/config';
import { em, platform } from './platform';

export const SESSION_COOKIE = 'cfdi_session';
/** Set by middleware.ts: where an expired session was going, so signing in again brings the user back. */
export const PATH_HEADER = 'x-console-path';

/** Set by server.js on every request: the TCP peer's address (a client's own value under this name is replaced). */
export const PEER_HEADER = 'x-cfdi-peer-address';

/**
 * The client's address, for the sign-in throttle and the audit log: the TCP peer, or, when the peer is one of
 * TRUSTED_PROXIES, the address X-Forwarded-For gives behind it (the API's rule, `clientAddress` of @cfdi/config).
 * Never the header alone: anyone can send one. Without server.js in front the peer is unknown.
 */
export async function clientIp(): Promise<string> {
  const request = await headers();
  const peer = request.get(PEER_HEADER);
  if (!peer) return 'unknown';
  return clientAddress(peer, request.get('x-forwarded-for'), await trustedProxy());
}

const trust = globalThis as typeof globalThis & { cfdiConsoleProxyTrust?: (address: string) => boolean };
async function trustedProxy(): Promise<(address: string) => boolean> {
  return (trust.cfdiConsoleProxyTrust ??= proxyTrust((await platform()).config.trustedProxies));
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
