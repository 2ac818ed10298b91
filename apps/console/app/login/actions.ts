'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  createConsoleSession,
  recordConsoleAudit,
  retrieveConsoleSession,
  revokeConsoleSession,
  signInWithPolicy,
} from '@cfdi/services';
import { em, platform } from '../../src/platform';
import { clientIp, cookieIsSecure, SESSION_COOKIE } from '../../src/session';

/** Only a path of this console: `next` must not send a signed-in user to another site. */
const safeNext = (raw: ReturnType<FormData['get']>) =>
  typeof raw === 'string' && /^\/(?![/\\])/.test(raw) ? raw : '/';

export async function signIn(form: FormData): Promise<void> {
  const next = safeNext(form.get('next'));
  const { redis } = await platform();
  const ip = await clientIp();
  // The services' sign-in policy (throttle shared with the OAuth consent page, lock-out, audit with channel console).
  const result = await signInWithPolicy(
    { em: await em(), redis },
    {
      email: String(form.get('email') ?? ''),
      password: String(form.get('password') ?? ''),
      ip,
      channel: 'console',
    },
    async (user) => {
      const session = await createConsoleSession(await em(), user.id, { ip, userAgent: null });
      return { target: session.id, session };
    },
  );
  if (!result.ok) {
    const error = result.reason === 'throttled' || result.reason === 'locked' ? 'throttled' : 'invalid';
    redirect(`/login?error=${error}&next=${encodeURIComponent(next)}`);
  }
  const { session } = result.opened;
  (await cookies()).set(SESSION_COOKIE, session.token, {
    httpOnly: true,
    secure: await cookieIsSecure(),
    sameSite: 'lax',
    path: '/',
    expires: session.expiresAt,
  });
  redirect(next);
}

export async function signOut(): Promise<void> {
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  if (token) {
    const session = await retrieveConsoleSession(await em(), token);
    await revokeConsoleSession(await em(), token);
    if (session)
      await recordConsoleAudit(await em(), {
        actor: session.user,
        action: 'session.sign_out',
        target: session.id,
        ip: await clientIp(),
      });
  }
  jar.delete(SESSION_COOKIE);
  redirect('/login');
}
