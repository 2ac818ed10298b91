import type { Locale } from '../i18n/locale';

/** Text for HTML element content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

// System fonts and no external resource: the site is served offline. Colours keep WCAG AA contrast (text 16:1,
// links 7:1); tables and code scroll sideways inside the page so nothing widens it on a 390 px phone.
const STYLE = `
:root { color-scheme: light; --text: #1b1f24; --muted: #4b5563; --link: #0b4fb3; --line: #d0d7de; --code: #f3f4f6; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: #fff; }
a { color: var(--link); }
a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; z-index: 1; }
header { border-bottom: 1px solid var(--line); padding: .75rem 1rem; }
header nav { display: flex; flex-wrap: wrap; gap: .25rem 1rem; max-width: 60rem; margin: 0 auto; }
header nav a { text-decoration: none; font-weight: 600; }
header nav a[aria-current="page"] { text-decoration: underline; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; overflow-wrap: anywhere; }
h1 { font-size: 1.9rem; line-height: 1.2; } h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); }
code { background: var(--code); padding: .1em .3em; border-radius: 4px; font-size: .9em; }
pre { background: var(--code); padding: .75rem; overflow-x: auto; border-radius: 6px; }
pre code { padding: 0; background: none; }
.table { overflow-x: auto; } table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: .35rem .5rem; vertical-align: top; text-align: left; }
img { max-width: 100%; height: auto; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dt { font-weight: 600; }
.muted { color: var(--muted); }
`;

export const NAV: Readonly<Record<Locale, { href: string; label: string }[]>> = {
  en: [
    { href: '/docs', label: 'Overview' },
    { href: '/docs/reference', label: 'API reference' },
    { href: '/docs/getting-started', label: 'Getting started' },
    { href: '/docs/api-guide', label: 'API guide' },
    { href: '/docs/mcp', label: 'MCP' },
    { href: '/docs/errors', label: 'Errors' },
  ],
  es: [
    { href: '/docs/es', label: 'Inicio' },
    { href: '/docs/reference', label: 'Referencia de la API' },
    { href: '/docs/es/getting-started', label: 'Primeros pasos' },
    { href: '/docs/es/api-guide', label: 'Guía de la API' },
    { href: '/docs/es/mcp', label: 'MCP' },
    { href: '/docs/es/errors', label: 'Errores' },
  ],
};

const FRAME = {
  en: { skip: 'Skip to content', nav: 'Documentation', other: 'Español' },
  es: { skip: 'Ir al contenido', nav: 'Documentación', other: 'English' },
};

/**
 * A whole page: `body` is HTML already escaped by its maker. `alternate` is the same page in the other language,
 * linked from the navigation.
 */
export function page(
  title: string,
  current: string,
  body: string,
  locale: Locale = 'en',
  alternate?: string,
): string {
  const frame = FRAME[locale];
  const other = locale === 'en' ? 'es' : 'en';
  const nav = [
    ...NAV[locale].map(
      ({ href, label }) =>
        `<a href="${href}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`,
    ),
    ...(alternate
      ? [`<a href="${escapeHtml(alternate)}" hreflang="${other}" lang="${other}">${frame.other}</a>`]
      : []),
  ].join('');
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · CFDI API</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#content">${frame.skip}</a>
<header><nav aria-label="${frame.nav}">${nav}</nav></header>
<main id="content">
${body}
</main>
</body>
</html>
`;
}
