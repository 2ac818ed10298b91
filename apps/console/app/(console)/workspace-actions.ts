'use server';

import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { LOCALE_COOKIE } from '../../src/i18n/locale';
import { requireSession } from '../../src/session';
import { ACCOUNT_COOKIE, MODE_COOKIE } from '../../src/workspace';

const YEAR = 365 * 24 * 3600;

/** Which account (operators) and mode the pages show, and the language: preferences, not state, so not audited. */
export async function chooseWorkspace(form: FormData): Promise<void> {
  await requireSession();
  const jar = await cookies();
  const account = form.get('account');
  if (typeof account === 'string' && /^acct_[0-9A-Z]+$/.test(account))
    jar.set(ACCOUNT_COOKIE, account, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: YEAR });
  const mode = form.get('mode');
  if (mode === 'test' || mode === 'live')
    jar.set(MODE_COOKIE, mode, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: YEAR });
  const lang = form.get('lang');
  if (lang === 'es' || lang === 'en')
    jar.set(LOCALE_COOKIE, lang, { sameSite: 'lax', path: '/', maxAge: YEAR });
  const back = form.get('back');
  redirect(typeof back === 'string' && /^\/(?![/\\])/.test(back) ? back : '/');
}
