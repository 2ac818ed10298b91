'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  clearLoginFailures, createConsoleSession, loginThrottled, recordConsoleAudit, recordLoginFailure, retrieveConsoleSession, revokeConsoleSession, signInConsoleUser,
} from '@cfdi/services';
import { em, platform } from '../../src/platform';
import { clientIp, cookieIsSecure, SESSION_COOKIE } from '../../src/session';

/** Only a path of this console: `next` must not send a signed-in user to another site. */
const safeNext = (raw: ReturnType<FormData['get']>) => (typeof raw === 'string' && /^\/(?![/\\])/.test(raw) ? raw : '/');

export async function signIn(form: FormData): Promise<void> {
  const email = String(form.get('email') ?? '').trim().slice(0, 320);
  const password = String(form.get('password') ?? '').slice(0, 1024);
  const next = safeNext(form.get('next'));
  const back = (error: string) => redirect(`/login?error=${error}&next=${encodeURIComponent(next)}`);
  if (!email || !password) back('invalid');
  const ip = await clientIp();
  const { redis } = await platform();
  if (await loginThrottled(redis, email, ip)) back('throttled');
  const result = await signInConsoleUser(await em(), email, password);
  if (!result.ok) {
    await recordLoginFailure(redis, email, ip);
    await recordConsoleAudit(await em(), { actor: { id: null, email }, action: 'session.sign_in_failed', ip });
    back(result.reason === 'locked' ? 'throttled' : 'invalid');
    return;
  }
  await clearLoginFailures(redis, email);
  const session = await createConsoleSession(await em(), result.user.id, { ip, userAgent: null });
  (await cookies()).set(SESSION_COOKIE, session.token, {
    httpOnly: true, secure: await cookieIsSecure(), sameSite: 'lax', path: '/', expires: session.expiresAt,
  });
  await recordConsoleAudit(await em(), { actor: result.user, action: 'session.sign_in', target: session.id, ip });
  redirect(next);
}

export async function signOut(): Promise<void> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) {
    const session = await retrieveConsoleSession(await em(), token);
    await revokeConsoleSession(await em(), token);
    if (session) await recordConsoleAudit(await em(), { actor: session.user, action: 'session.sign_out', target: session.id, ip: await clientIp() });
  }
  jar.delete(SESSION_COOKIE);
  redirect('/login');
}
