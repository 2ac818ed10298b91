import 'server-only';
import { cookies, headers } from 'next/headers';
import {
  fromAcceptLanguage,
  isLocale,
  LOCALE_COOKIE,
  MESSAGES,
  type Locale,
  type Messages,
} from './messages';

/** The language the visitor chose with the switch, else the first of Accept-Language the portal speaks; Spanish. */
export async function currentLocale(): Promise<{ locale: Locale; t: Messages }> {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = isLocale(chosen) ? chosen : fromAcceptLanguage((await headers()).get('accept-language'));
  return { locale, t: MESSAGES[locale] };
}

/** A moment as Mexico City's wall clock, or a day. */
export function formatDate(iso: string, locale: Locale, withTime = true): string {
  return new Intl.DateTimeFormat(locale === 'es' ? 'es-MX' : 'en-US', {
    timeZone: 'America/Mexico_City',
    dateStyle: 'long',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(new Date(iso));
}

export function formatMoney(amount: string, locale: Locale): string {
  const number = new Intl.NumberFormat(locale === 'es' ? 'es-MX' : 'en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Number(amount));
  return `$${number} MXN`;
}
