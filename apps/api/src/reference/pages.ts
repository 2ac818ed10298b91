import { PROBLEM_CODES, type ProblemCode, type ProblemCodeEntry } from '@cfdi/services';
import type { Guide } from './guides';
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
  ['Convenciones: ids, listas, idempotencia, límites', '/docs/es/api-guide#conventions'],
  ['Errores: problem+json y cada código', '/docs/errors'],
  ['Facturas y notas de crédito', '/docs/es/api-guide#invoices-and-credit-notes'],
  ['Complementos de pago y cancelaciones', '/docs/es/api-guide#payments-and-cancellations'],
  ['Recibos de nómina (Nómina 1.2)', '/docs/es/api-guide#payroll-receipts-nómina-12'],
  ['Webhooks y la verificación de su firma', '/docs/es/api-guide#webhooks'],
  ['El SDK de TypeScript', '/docs/es/api-guide#typescript-sdk'],
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
<li><a href="/docs/errors">Códigos de error</a> (en inglés): qué significa cada <code>code</code> y cómo corregirlo.</li>
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

export function errorsIndexPage(): string {
  const rows = entries().map(
    ([code, entry]) =>
      `<tr><td><a href="/docs/errors/${code}"><code>${code}</code></a></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td></tr>`,
  );
  return page(
    'Error codes',
    '/docs/errors',
    `<h1>Error codes</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457): <code>type</code> is this site's page for its
<code>code</code>, <code>status</code> the HTTP status, <code>detail</code> what happened this time; a 400 lists every
invalid field in <code>errors[]</code> with its JSON-pointer <code>path</code>, and a 422 <code>sat_rejected</code>
carries the SAT's or the PAC's <code>satCode</code>. MCP tools return the same members in an <code>isError</code> result.</p>
<div class="table"><table>
<thead><tr><th scope="col">code</th><th scope="col">HTTP status</th><th scope="col">title</th></tr></thead>
<tbody>${rows.join('')}</tbody>
</table></div>`,
  );
}

export function errorPage(code: ProblemCode, docsUrl: string): string {
  const entry: ProblemCodeEntry = PROBLEM_CODES[code];
  const example = {
    type: `${docsUrl}/errors/${code}`,
    title: entry.title,
    status: entry.status,
    code,
    detail: '…',
  };
  const source = entry.source
    ? `<h2 id="source">Source</h2><p>${inline(entry.source)}</p>`
    : '<h2 id="source">Source</h2><p>Raised by this platform (no SAT or PAC code behind it).</p>';
  return page(
    code,
    '/docs/errors',
    `<p class="muted"><a href="/docs/errors">Error codes</a></p>
<h1><code>${code}</code></h1>
<dl class="facts"><dt>HTTP status</dt><dd>${entry.status}</dd><dt>Title</dt><dd>${escapeHtml(entry.title)}</dd>${
      'consoleOnly' in entry ? '<dt>Where</dt><dd>the admin console</dd>' : ''
    }</dl>
<h2 id="meaning">What it means</h2><p>${inline(entry.meaning)}</p>
<h2 id="fix">How to fix it</h2><p>${inline(entry.fix)}</p>
${source}
<h2 id="example">Example</h2>
<pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre>`,
  );
}
