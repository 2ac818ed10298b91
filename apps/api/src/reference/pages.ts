import {
  PROBLEM_CODES,
  PROBLEM_CODES_ES,
  type ProblemCode,
  type ProblemCodeEntry,
  type ProblemCodeTexts,
} from '@cfdi/services';
import type { Guide } from './guides';
import type { Locale } from '../i18n/locale';
import { escapeHtml, page } from './layout';
import { createMarkdown } from './guides';

const md = createMarkdown();
const inline = (text: string) => md.renderInline(text);
const entries = () => Object.entries(PROBLEM_CODES) as [ProblemCode, ProblemCodeEntry][];

// Where the guides cover the topics an integrator looks for first; reference-site.test.ts follows every one.
const TOPICS: [string, string][] = [
  ['Quickstart: a stack, a key, a first invoice', '/docs/getting-started'],
  ['Conventions: ids, lists, idempotency, rate limits', '/docs/api-guide#conventions'],
  ['Errors: problem+json and every code', '/docs/errors'],
  ['Invoices and credit notes', '/docs/api-guide#invoices-and-credit-notes'],
  ['Drafts', '/docs/api-guide#drafts'],
  ['Payments and cancellations', '/docs/api-guide#payments-and-cancellations'],
  ['Payroll receipts (Nómina 1.2)', '/docs/api-guide#payroll-receipts-nómina-12'],
  ['E-mail', '/docs/api-guide#e-mail'],
  ['Webhooks and verifying their signature', '/docs/api-guide#webhooks'],
  ['The TypeScript SDK', '/docs/api-guide#typescript-sdk'],
  ['MCP tool server for AI agents', '/docs/mcp'],
];

export function indexPage(guides: Map<string, Guide>): string {
  const topics = TOPICS.map(
    ([label, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`,
  );
  const all = [...guides.values()].map(
    (guide) => `<li><a href="/docs/${guide.slug}">${escapeHtml(guide.title)}</a></li>`,
  );
  return page(
    'Documentation',
    '/docs',
    `<h1>CFDI 4.0 stamping API</h1>
<p>Stamp Mexican electronic invoices (CFDI 4.0), payment complements and payroll receipts through a PAC, from a REST
API, an MCP tool server or the TypeScript SDK.</p>
<ul>
<li><a href="/docs/reference">API reference</a>: every operation, rendered from the live <a href="/v1/openapi.json">OpenAPI document</a>.</li>
<li><a href="/docs/errors">Error codes</a>: what each problem <code>code</code> means and how to fix it.</li>
</ul>
<h2 id="topics">Topics</h2>
<ul>${topics.join('')}</ul>
<h2 id="guides">Guides</h2>
<ul>${all.join('')}</ul>`,
    'en',
    '/docs/es',
  );
}

export function guidePage(guide: Guide): string {
  return page(guide.title, `/docs/${guide.slug}`, guide.html, 'en', `/docs/es/${guide.slug}`);
}

// The Spanish index: the same topics, to the Spanish guides (or the English ones in the Spanish frame).
const TEMAS: [string, string][] = [
  ['Primeros pasos: un entorno, una llave y la primera factura', '/docs/es/getting-started'],
  ['Convenciones: ids, listas, límites', '/docs/es/api-guide#convenciones'],
  ['Idempotencia', '/docs/es/api-guide#idempotencia'],
  ['Errores: problem+json y cada código', '/docs/es/errors'],
  ['Facturas y notas de crédito', '/docs/es/api-guide#facturas-y-notas-de-crédito'],
  ['Borradores', '/docs/es/api-guide#borradores'],
  ['Complementos de pago y cancelaciones', '/docs/es/api-guide#complementos-de-pago-y-cancelaciones'],
  ['Recibos de nómina (Nómina 1.2)', '/docs/es/api-guide#recibos-de-nómina-nómina-12'],
  ['Correo electrónico', '/docs/es/api-guide#correo-electrónico'],
  ['Webhooks y la verificación de su firma', '/docs/es/api-guide#verificar-una-entrega'],
  ['El SDK de TypeScript', '/docs/es/api-guide#sdk-de-typescript'],
  ['Servidor MCP para agentes de IA', '/docs/es/mcp'],
];

export function spanishIndexPage(guides: Map<string, Guide>, spanish: Map<string, Guide>): string {
  const temas = TEMAS.map(
    ([label, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`,
  );
  const all = [...guides.values()].map((guide) => {
    const translated = spanish.get(guide.slug);
    const title = translated
      ? escapeHtml(translated.title)
      : `<span lang="en">${escapeHtml(guide.title)}</span> (en inglés)`;
    return `<li><a href="/docs/es/${guide.slug}">${title}</a></li>`;
  });
  return page(
    'Documentación',
    '/docs/es',
    `<h1>API de timbrado CFDI 4.0</h1>
<p>Timbra facturas electrónicas (CFDI 4.0), complementos de pago y recibos de nómina a través de un PAC, desde una
API REST, un servidor de herramientas MCP o el SDK de TypeScript.</p>
<ul>
<li><a href="/docs/reference">Referencia de la API</a> (en inglés): cada operación, desde el <a href="/v1/openapi.json">documento OpenAPI</a> en vivo.</li>
<li><a href="/docs/es/errors">Códigos de error</a>: qué significa cada <code>code</code> y cómo corregirlo.</li>
</ul>
<h2 id="temas">Temas</h2>
<ul>${temas.join('')}</ul>
<h2 id="guias">Guías</h2>
<ul>${all.join('')}</ul>`,
    'es',
    '/docs',
  );
}

/** A guide in Spanish, or the English one in the Spanish frame, marked as English, until it is translated. */
export function spanishGuidePage(english: Guide, translated: Guide | undefined): string {
  const body = translated
    ? translated.html
    : `<p class="muted">Esta guía todavía no está traducida: se muestra en inglés.</p>
<div lang="en">${english.html}</div>`;
  return page(
    translated?.title ?? english.title,
    `/docs/es/${english.slug}`,
    body,
    'es',
    `/docs/${english.slug}`,
  );
}

/** Redoc's standalone bundle, served from node_modules, renders the document this server serves. */
export function referencePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · CFDI API</title>
<style>body { margin: 0; } .back { display: block; padding: .5rem 1rem; font: 600 16px system-ui, sans-serif; color: #0b4fb3; }</style>
</head>
<body>
<a class="back" href="/docs">← Guides and error codes</a>
<redoc spec-url="/v1/openapi.json" hide-download-button="false"></redoc>
<noscript><p>The reference needs JavaScript; the raw document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</p></noscript>
<script src="/docs/assets/redoc.standalone.js"></script>
</body>
</html>
`;
}

/** The error pages' own words, and where each language's pages live. */
const ERROR_FRAME = {
  en: {
    base: '/docs/errors',
    other: '/docs/es/errors',
    heading: 'Error codes',
    intro: `<p>Every error is <code>application/problem+json</code> (RFC 9457): <code>type</code> is this site's page for its
<code>code</code>, <code>status</code> the HTTP status, <code>detail</code> what happened this time; a 400 lists every
invalid field in <code>errors[]</code> with its JSON-pointer <code>path</code>, and a 422 <code>sat_rejected</code>
carries the SAT's or the PAC's <code>satCode</code>. MCP tools return the same members in an <code>isError</code> result.</p>`,
    columns: ['code', 'HTTP status', 'title'],
    status: 'HTTP status',
    title: 'Title',
    where: 'Where',
    console: 'the admin console',
    meaning: 'What it means',
    fix: 'How to fix it',
    source: 'Source',
    ours: 'Raised by this platform (no SAT or PAC code behind it).',
    example: 'Example',
  },
  es: {
    base: '/docs/es/errors',
    other: '/docs/errors',
    heading: 'Códigos de error',
    intro: `<p>Cada error es <code>application/problem+json</code> (RFC 9457): <code>type</code> es la página de este sitio
para su <code>code</code> (en inglés; esta es su traducción), <code>status</code> el estado HTTP, <code>detail</code> lo
que pasó esta vez; un 400 lista cada campo inválido en <code>errors[]</code> con su <code>path</code> en JSON pointer, y
un 422 <code>sat_rejected</code> lleva el <code>satCode</code> del SAT o del PAC. Las herramientas MCP devuelven los mismos
miembros en un resultado <code>isError</code>.</p>`,
    columns: ['code', 'Estado HTTP', 'título'],
    status: 'Estado HTTP',
    title: 'Título',
    where: 'Dónde',
    console: 'la consola de administración',
    meaning: 'Qué significa',
    fix: 'Cómo corregirlo',
    source: 'Origen',
    ours: 'Lo produce esta plataforma (no hay un código del SAT ni del PAC detrás).',
    example: 'Ejemplo',
  },
} as const;

const textsOf = (code: ProblemCode, locale: Locale): ProblemCodeTexts =>
  locale === 'es' ? PROBLEM_CODES_ES[code] : PROBLEM_CODES[code];

/** Every code with its status and title, in English at /docs/errors or in Spanish at /docs/es/errors. */
export function errorsIndexPage(locale: Locale = 'en'): string {
  const frame = ERROR_FRAME[locale];
  const rows = entries().map(
    ([code, entry]) =>
      `<tr><td><a href="${frame.base}/${code}"><code>${code}</code></a></td><td>${entry.status}</td><td>${escapeHtml(textsOf(code, locale).title)}</td></tr>`,
  );
  const [codeColumn, statusColumn, titleColumn] = frame.columns;
  return page(
    frame.heading,
    frame.base,
    `<h1>${frame.heading}</h1>
${frame.intro}
<div class="table"><table>
<thead><tr><th scope="col">${codeColumn}</th><th scope="col">${statusColumn}</th><th scope="col">${titleColumn}</th></tr></thead>
<tbody>${rows.join('')}</tbody>
</table></div>`,
    locale,
    frame.other,
  );
}

/** One code's page: what it means, how to fix it, where it comes from, and the problem it is. */
export function errorPage(code: ProblemCode, docsUrl: string, locale: Locale = 'en'): string {
  const frame = ERROR_FRAME[locale];
  const entry: ProblemCodeEntry = PROBLEM_CODES[code];
  const texts = textsOf(code, locale);
  // The problem as the API sends it: English title, `type` at the English page.
  const example = {
    type: `${docsUrl}/errors/${code}`,
    title: entry.title,
    status: entry.status,
    code,
    detail: '…',
  };
  const source = `<h2 id="source">${frame.source}</h2><p>${texts.source ? inline(texts.source) : frame.ours}</p>`;
  return page(
    code,
    frame.base,
    `<p class="muted"><a href="${frame.base}">${frame.heading}</a></p>
<h1><code>${code}</code></h1>
<dl class="facts"><dt>${frame.status}</dt><dd>${entry.status}</dd><dt>${frame.title}</dt><dd>${escapeHtml(texts.title)}</dd>${
      'consoleOnly' in entry ? `<dt>${frame.where}</dt><dd>${frame.console}</dd>` : ''
    }</dl>
<h2 id="meaning">${frame.meaning}</h2><p>${inline(texts.meaning)}</p>
<h2 id="fix">${frame.fix}</h2><p>${inline(texts.fix)}</p>
${source}
<h2 id="example">${frame.example}</h2>
<pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`,
    locale,
    `${frame.other}/${code}`,
  );
}
