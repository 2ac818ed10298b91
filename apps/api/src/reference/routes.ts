import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isProblemCode } from '@cfdi/services';
import { findDocsDir, loadGuides } from './guides';
import { localeOf } from '../i18n/locale';
import {
  errorPage,
  errorsIndexPage,
  guidePage,
  indexPage,
  referencePage,
  spanishGuidePage,
  spanishIndexPage,
} from './pages';

const REDOC = require.resolve('redoc/bundles/redoc.standalone.js');
const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};
// The plain pages run no script and load nothing from elsewhere; Redoc's page needs its own script and inline styles.
const PAGE_CSP =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const html = (reply: FastifyReply, body: string, csp = PAGE_CSP) =>
  reply.type('text/html; charset=utf-8').header('content-security-policy', csp).send(body);

/**
 * The reference site at /docs: the API reference (Redoc over /v1/openapi.json), the guides rendered from docs/*.md,
 * and one page per problem code at the URL its `type` names. Public and outside the OpenAPI document.
 */
export const referenceRoutes: FastifyPluginAsync = async (app) => {
  const { docsUrl } = app.deps.config.api;
  const { guides, spanish, images } = loadGuides(findDocsDir());
  const index = indexPage(guides);
  const spanishIndex = spanishIndexPage(guides, spanish);
  const hide = { schema: { hide: true } };
  /**
   * A browser that prefers Spanish to English is sent to the page's Spanish twin under /docs/es; without a preference
   * for either the site answers in English, the language it is written in first.
   */
  const inSpanish = (request: FastifyRequest, reply: FastifyReply, spanishPath: string) => {
    reply.header('vary', 'accept-language');
    if (localeOf(request.headers['accept-language'], 'en') !== 'es') return null;
    return reply.code(302).header('location', spanishPath).send();
  };

  app.get(
    '/docs',
    hide,
    async (request, reply) => inSpanish(request, reply, '/docs/es') ?? html(reply, index),
  );
  app.get('/docs/es', hide, async (_request, reply) => html(reply, spanishIndex));
  app.get<{ Params: { slug: string } }>('/docs/es/:slug', hide, async (request, reply) => {
    const guide = guides.get(request.params.slug);
    if (!guide) throw new AppError(404, 'not_found', 'Not found', `No page /docs/es/${request.params.slug}.`);
    return html(reply, spanishGuidePage(guide, spanish.get(guide.slug)));
  });
  app.get('/docs/reference', hide, async (_request, reply) =>
    html(
      reply,
      referencePage(),
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:",
    ),
  );
  app.get('/docs/assets/redoc.standalone.js', hide, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(fs.createReadStream(REDOC)),
  );
  app.get<{ Params: { '*': string } }>('/docs/assets/*', hide, async (request, reply) => {
    const file = images.get(request.params['*']);
    if (!file) throw new AppError(404, 'not_found', 'Not found', `No asset ${request.params['*']}.`);
    return reply
      .type(IMAGE_TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('cache-control', 'public, max-age=3600')
      .send(fs.createReadStream(file));
  });
  // A problem's `type` names the English page; a browser that prefers Spanish is sent to its translation.
  const knownCode = (code: string) => {
    if (!isProblemCode(code)) throw new AppError(404, 'not_found', 'Not found', `No error code "${code}".`);
    return code;
  };
  app.get(
    '/docs/errors',
    hide,
    async (request, reply) =>
      inSpanish(request, reply, '/docs/es/errors') ?? html(reply, errorsIndexPage('en')),
  );
  app.get('/docs/es/errors', hide, async (_request, reply) => html(reply, errorsIndexPage('es')));
  app.get<{ Params: { code: string } }>('/docs/errors/:code', hide, async (request, reply) => {
    const code = knownCode(request.params.code);
    return (
      inSpanish(request, reply, `/docs/es/errors/${code}`) ?? html(reply, errorPage(code, docsUrl, 'en'))
    );
  });
  app.get<{ Params: { code: string } }>('/docs/es/errors/:code', hide, async (request, reply) =>
    html(reply, errorPage(knownCode(request.params.code), docsUrl, 'es')),
  );
  app.get<{ Params: { slug: string } }>('/docs/:slug', hide, async (request, reply) => {
    const guide = guides.get(request.params.slug);
    if (!guide) throw new AppError(404, 'not_found', 'Not found', `No page /docs/${request.params.slug}.`);
    return inSpanish(request, reply, `/docs/es/${guide.slug}`) ?? html(reply, guidePage(guide));
  });
};
