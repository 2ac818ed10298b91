/** The languages the API's own pages are written in (the OAuth sign-in and consent pages, the reference guides). */
export type Locale = 'es' | 'en';

/**
 * The language of a request's `Accept-Language` (RFC 9110: the highest q among es and en, order breaking ties), or
 * `fallback` when it names neither: Spanish for the consent pages (the platform's users are Mexican businesses),
 * English for the reference site (written in English first).
 */
export function localeOf(acceptLanguage: string | undefined, fallback: Locale = 'es'): Locale {
  let best: { locale: Locale; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const locale =
      tag === 'en' || tag.startsWith('en-') ? 'en' : tag === 'es' || tag.startsWith('es-') ? 'es' : null;
    if (locale && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? fallback;
}

/** The `lang` attribute of a page in that language. */
export const htmlLang = (locale: Locale) => (locale === 'es' ? 'es-MX' : 'en');
