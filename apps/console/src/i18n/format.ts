import type { Locale } from './messages';

const TIME_ZONE = 'America/Mexico_City';
const TAG = { es: 'es-MX', en: 'en-US' } as const;

/**
 * The formatters, made once per locale: constructing an Intl formatter costs about 0.2 ms (with a time zone), and a
 * list of 100 rows formats 300 values (measured in bench/console: the ledger page's largest single cost).
 */
const FORMATTERS = Object.fromEntries(
  (['es', 'en'] as const).map((locale) => [
    locale,
    {
      money: new Intl.NumberFormat(TAG[locale], { minimumFractionDigits: 2, maximumFractionDigits: 3 }),
      dateTime: new Intl.DateTimeFormat(TAG[locale], {
        timeZone: TIME_ZONE,
        dateStyle: 'medium',
        timeStyle: 'short',
      }),
      integer: new Intl.NumberFormat(TAG[locale]),
    },
  ]),
) as Record<Locale, { money: Intl.NumberFormat; dateTime: Intl.DateTimeFormat; integer: Intl.NumberFormat }>;

/**
 * `$1,234.56 MXN` in both languages (es-MX and en-US group and round the same way); a document in another currency
 * shows its own code (`$1,234.56 USD`) and, for currencies with 3 decimals (KWD), the third.
 */
export function formatMoney(amount: number, locale: Locale, currency = 'MXN'): string {
  const number = FORMATTERS[locale].money.format(amount);
  return `${amount < 0 ? '-' : ''}$${number.replace('-', '')} ${currency}`;
}

export const formatCentavos = (centavos: number, locale: Locale) => formatMoney(centavos / 100, locale);

/** A moment as Mexico City's wall clock. */
export function formatDateTime(iso: string | Date | null | undefined, locale: Locale): string {
  if (!iso) return '—';
  return FORMATTERS[locale].dateTime.format(new Date(iso));
}

export const formatInteger = (value: number, locale: Locale) => FORMATTERS[locale].integer.format(value);

/**
 * A machine value (status, kind, role…) as its label in `labels`, one of the maps in messages.ts. A value the map
 * does not know yet (a newer service than this console, a hand-typed query) shows as itself rather than as nothing.
 */
export function labelOf<K extends string>(labels: Readonly<Record<K, string>>, value: string): string {
  return Object.hasOwn(labels, value) ? labels[value as K] : value;
}
