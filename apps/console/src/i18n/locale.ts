import 'server-only';
import { cookies } from 'next/headers';
import { LOCALES, MESSAGES, type Locale } from './messages';

export const LOCALE_COOKIE = 'cfdi_lang';

/** Spanish unless the user chose English. */
export async function currentLocale(): Promise<{ locale: Locale; t: (typeof MESSAGES)[Locale] }> {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = (LOCALES as readonly string[]).includes(chosen ?? '') ? (chosen as Locale) : 'es';
  return { locale, t: MESSAGES[locale] };
}
