import fs from 'node:fs';
import path from 'node:path';
import { PROBLEM_CODES, PROBLEM_CODES_ES } from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';

// The reference site at /docs: a page for every registered problem code, and no dead link among those the API emits
// (problem `type`, OpenAPI externalDocs, MCP resource metadata, the README's and guides' /docs links) or that the
// pages themselves carry, fragments included.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
}, 60_000);
afterAll(async () => api?.close());

const root = path.resolve(__dirname, '../../..');

/** A URL the API emitted under its DOCS_URL, as a path on the server under test. */
function served(url: string): string {
  const { docsUrl } = api.config.api;
  expect(url.startsWith(`${docsUrl}/`) || url === docsUrl).toBe(true);
  return `/docs${url.slice(docsUrl.length)}`;
}

async function get(target: string): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(api.url + target.split('#')[0]);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

/** A language, a viewport for phones and one top heading (Redoc's page gets its heading from Redoc's script). */
function expectAccessiblePage(text: string, headings = 1): void {
  expect(text).toMatch(/^<!doctype html>\n<html lang="(en|es)">/);
  expect(text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(text.match(/<h1[ >]/g) ?? []).toHaveLength(headings);
}

/** HTML-escaped as the pages write text (markdown's code spans and quotes aside: the first plain words). */
const firstWords = (text: string) => text.split(/[`'"<>&(«]/)[0]!.trim();

it('every registered problem code has a page at the URL its type names, in English and in Spanish', async () => {
  const codes = Object.keys(PROBLEM_CODES) as (keyof typeof PROBLEM_CODES)[];
  expect(codes.length).toBeGreaterThanOrEqual(25);
  expect(Object.keys(PROBLEM_CODES_ES).sort()).toEqual([...codes].sort());
  for (const code of codes) {
    const english = PROBLEM_CODES[code];
    const spanish = PROBLEM_CODES_ES[code];
    for (const [path, lang, texts] of [
      [served(`${api.config.api.docsUrl}/errors/${code}`), 'en', english],
      [`/docs/es/errors/${code}`, 'es', spanish],
    ] as const) {
      const page = await get(path);
      expect({ path, status: page.status, type: page.type }).toEqual({
        path,
        status: 200,
        type: 'text/html; charset=utf-8',
      });
      expectAccessiblePage(page.text);
      expect(page.text).toContain(`<html lang="${lang}">`);
      expect(page.text).toContain(`<h1><code>${code}</code></h1>`);
      expect(page.text).toContain(`<dd>${english.status}</dd>`);
      expect(page.text).toContain(firstWords(texts.meaning));
      expect(page.text).toContain(firstWords(texts.fix));
    }
    // A code whose reason is the SAT's or the PAC's says so in both languages; the others in neither.
    expect([code, 'source' in english, spanish.source !== undefined]).toEqual([
      code,
      'source' in english,
      'source' in english,
    ]);
    expect([code, spanish.title === english.title && spanish.title !== 'Conflict']).toEqual([code, false]);
  }
  expect((await get('/docs/errors/sat_rejected')).text).toContain('Anexo 20');
  const sat = await get('/docs/es/errors/sat_rejected');
  expect(sat.text).toContain('Anexo 20');
  expect(sat.text).toContain('<h2 id="fix">Cómo corregirlo</h2>');
  expect(sat.text).toContain('<a href="/docs/errors/sat_rejected" hreflang="en" lang="en">English</a>');
  const index = await get('/docs/es/errors');
  expectAccessiblePage(index.text);
  for (const code of codes) expect(index.text).toContain(`<a href="/docs/es/errors/${code}">`);
});

it('a problem the API sends names a page that exists; an unknown code is a problem 404', async () => {
  const account = await api.newAccount();
  const missing = await api.request('GET', '/v1/invoices/inv_missing', { key: account.testKey });
  expect(missing.body.code).toBe('not_found');
  expect((await get(served(missing.body.type))).status).toBe(200);
  const invalid = await api.request('POST', '/v1/merchants', { key: account.testKey, body: { rfc: 1 } });
  expect(invalid.body.code).toBe('validation_error');
  expect((await get(served(invalid.body.type))).status).toBe(200);

  for (const path of ['/docs/es/errors/no_such_code', '/docs/es/errors/constructor'])
    expect((await api.request('GET', path)).status).toBe(404);
  const unknown = await api.request('GET', '/docs/errors/no_such_code');
  expect(unknown.status).toBe(404);
  expect(unknown.headers.get('content-type')).toBe('application/problem+json');
  expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
  expect((await api.request('GET', '/docs/no-such-guide')).status).toBe(404);
  expect((await api.request('GET', '/docs/assets/../api-guide.md')).status).toBe(404);
});

/** Every documentation link the API emits outside the pages: where the crawl starts. */
async function emittedLinks(): Promise<string[]> {
  const links = ['/docs'];
  const openapi = await api.request('GET', '/v1/openapi.json');
  const externalDocs = JSON.stringify(openapi.body).matchAll(/"externalDocs":\{[^}]*"url":"([^"]+)"/g);
  for (const [, url] of externalDocs) links.push(new URL(url!, `${api.url}/v1/openapi.json`).pathname);
  expect(links.length).toBeGreaterThan(1);
  for (const resource of ['', '/mcp', '/mcp/test']) {
    const metadata = await api.request('GET', `/.well-known/oauth-protected-resource${resource}`);
    links.push(served(metadata.body.resource_documentation));
  }
  const authServer = await api.request('GET', '/.well-known/oauth-authorization-server');
  links.push(served(authServer.body.service_documentation));
  // The README's and the guides' links to the running site (`http://127.0.0.1:3000/docs/…`, `` `/docs/…` ``).
  for (const file of ['README.md', ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)]) {
    if (!file.endsWith('.md')) continue;
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const [, link] of text.matchAll(/(?:https?:\/\/127\.0\.0\.1:3000|`)(\/docs(?:\/[\w.#-]+)*)/g))
      links.push(link!);
  }
  return links;
}

it('no dead link: the site crawled from every link the API emits, fragments included', async () => {
  const seen = new Map<string, string>(); // path → page text
  const queue = await emittedLinks();
  expect(queue).toEqual(expect.arrayContaining(['/docs', '/docs/mcp']));
  const fragments: [string, string][] = [];
  while (queue.length) {
    const link = queue.shift()!;
    const [pathname = '', fragment] = link.split('#', 2);
    if (fragment) fragments.push([pathname, decodeURIComponent(fragment)]);
    if (seen.has(pathname)) continue;
    const answer = await get(pathname);
    expect({ link: pathname, status: answer.status }).toEqual({ link: pathname, status: 200 });
    seen.set(pathname, answer.text);
    if (!answer.type.startsWith('text/html')) continue;
    expectAccessiblePage(answer.text, pathname === '/docs/reference' ? 0 : 1);
    for (const [, target] of answer.text.matchAll(/(?:href|src)="([^"]+)"/g)) {
      const resolved = new URL(target!.replace(/&amp;/g, '&'), `${api.url}${pathname}`);
      if (resolved.origin !== api.url) continue;
      queue.push(resolved.pathname + resolved.hash);
    }
  }
  for (const [pathname, id] of fragments)
    expect({ pathname, id, found: seen.get(pathname)!.includes(` id="${id}"`) }).toEqual({
      pathname,
      id,
      found: true,
    });
  // The crawl reached the reference, Redoc's bundle, every guide and every error page.
  const reached = [...seen.keys()];
  expect(reached).toEqual(
    expect.arrayContaining([
      '/docs/reference',
      '/docs/assets/redoc.standalone.js',
      '/docs/api-guide',
      '/docs/getting-started',
      '/docs/mcp',
      '/docs/es',
      '/docs/es/getting-started',
      '/docs/es/api-guide',
      '/docs/es/mcp',
      '/docs/es/errors',
      ...Object.keys(PROBLEM_CODES).map((code) => `/docs/errors/${code}`),
      ...Object.keys(PROBLEM_CODES).map((code) => `/docs/es/errors/${code}`),
    ]),
  );
  expect(seen.get('/docs/reference')).toContain('<redoc spec-url="/v1/openapi.json"');
}, 60_000);

it('serves the guides and error pages in Spanish under /docs/es, by Accept-Language too; a guide not translated yet is marked English', async () => {
  const index = await get('/docs/es');
  expect(index.status).toBe(200);
  expect(index.text).toContain('<html lang="es">');
  expect(index.text).toContain('<a href="/docs/es/getting-started">Primeros pasos</a>');
  expect(index.text).toContain('<a href="/docs" hreflang="en" lang="en">English</a>');

  const translated = await get('/docs/es/getting-started');
  expect(translated.text).toContain('<html lang="es">');
  expect(translated.text).toContain('<h1 id="primeros-pasos">Primeros pasos</h1>');
  expect(translated.text).toContain('href="/docs/es/api-guide#facturas-y-notas-de-cr%C3%A9dito"');
  expect(translated.text).toContain('<a href="/docs/getting-started" hreflang="en" lang="en">English</a>');
  const english = await get('/docs/getting-started');
  expect(english.text).toContain('<a href="/docs/es/getting-started" hreflang="es" lang="es">Español</a>');

  const untranslated = await get('/docs/es/operations');
  expect(untranslated.text).toContain('<html lang="es">');
  expect(untranslated.text).toContain('Esta guía todavía no está traducida');
  expect(untranslated.text).toContain('<div lang="en"><h1 id="operations-runbook">Operations runbook</h1>');
  expect((await api.request('GET', '/docs/es/no-such-guide')).status).toBe(404);
  // An unknown code is a 404 in every language, never a redirect to a page that does not exist.
  const unknownInSpanish = await fetch(api.url + '/docs/errors/no_such_code', {
    redirect: 'manual',
    headers: { 'accept-language': 'es-MX,es;q=0.9' },
  });
  expect(unknownInSpanish.status).toBe(404);

  const asked = (path: string, language?: string) =>
    fetch(api.url + path, { redirect: 'manual', headers: language ? { 'accept-language': language } : {} });
  // Every topic of the Spanish index is a page in Spanish: the integrator's guides and the error pages.
  const topics = index.text.slice(index.text.indexOf('id="temas"'), index.text.indexOf('id="guias"'));
  const topicLinks = [...topics.matchAll(/href="([^"]+)"/g)].map(([, href]) => href!);
  expect(topicLinks.length).toBeGreaterThanOrEqual(10);
  for (const href of topicLinks) {
    const topic = await get(href);
    expect([href, topic.status, topic.text.includes('<html lang="es">')]).toEqual([href, 200, true]);
    expect([href, topic.text.includes('todavía no está traducida')]).toEqual([href, false]);
  }

  for (const [path, spanish] of [
    ['/docs', '/docs/es'],
    ['/docs/mcp', '/docs/es/mcp'],
    ['/docs/api-guide', '/docs/es/api-guide'],
    ['/docs/errors', '/docs/es/errors'],
    ['/docs/errors/sat_rejected', '/docs/es/errors/sat_rejected'],
  ]) {
    const redirected = await asked(path!, 'es-MX,es;q=0.9,en;q=0.5');
    expect([redirected.status, redirected.headers.get('location')]).toEqual([302, spanish]);
    expect(redirected.headers.get('vary')).toMatch(/accept-language/i);
    for (const language of [undefined, 'en-US,en;q=0.9,es;q=0.8', 'fr-FR'])
      expect((await asked(path!, language)).status).toBe(200);
  }
});
