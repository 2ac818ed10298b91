import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, NotFoundError } from '@cfdi/services';
import { FILES_PATH, isStorageKey } from '@cfdi/storage';
import { problemResponse } from '../schemas/common';

const forbidden = (detail: string) => new AppError(403, 'forbidden', 'Forbidden', detail);

/**
 * Stored files behind HMAC-signed URLs (invoice XML/PDF/ZIP, acuses, logos). No API key: the signature over
 * the key and the expiry is the credential, so links can go to browsers and e-mail.
 */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(`${FILES_PATH}/*`, {
    schema: {
      tags: ['files'],
      operationId: 'retrieveFile',
      summary: 'Download a file',
      description: 'Download a file through a signed URL returned by the API (valid 15 minutes).',
      security: [],
      querystring: Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }),
      response: { 200: Type.Any({ description: 'The file, with its stored Content-Type' }), 403: problemResponse(403), 404: problemResponse(404) },
    },
  }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    if (!isStorageKey(key)) throw forbidden('This file URL is not valid.');
    const check = app.deps.fileUrls.verify(key, request.query.expires, request.query.signature);
    if (!check.valid) {
      throw forbidden(check.reason === 'expired'
        ? 'This file URL has expired; fetch the resource again for a fresh one.'
        : 'This file URL is not valid (bad or missing signature).');
    }
    const file = await app.deps.storage.get(key);
    if (!file) throw new NotFoundError('file');
    return reply
      .header('content-type', file.contentType)
      // The URL is a time-limited credential: shared caches must not keep the bytes beyond it.
      .header('cache-control', 'private, max-age=60')
      .header('x-content-type-options', 'nosniff')
      .send(file.bytes);
  });
};
