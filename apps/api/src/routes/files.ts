import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, createDocumentFileProducer, FileRenderFailedError, NotFoundError } from '@cfdi/services';
import { FILES_PATH, isStorageKey } from '@cfdi/storage';
import { Binary, problemResponse } from '../schemas/common';

const forbidden = (detail: string) => new AppError(403, 'forbidden', 'Forbidden', detail);
// A stamped document is never a 5xx because its PDF would not render: the PDF is "not there yet", the XML still is.
const notRendered = () =>
  new AppError(
    404,
    'not_found',
    'File not ready',
    'This file could not be rendered just now; it is tried again on the next request. The XML of the document is available.',
    { headers: { 'retry-after': '30' } },
  );

/**
 * Stored files behind HMAC-signed URLs (invoice XML/PDF/ZIP, acuses, logos). No API key: the signature over
 * the key and the expiry is the credential, so links can go to browsers and e-mail.
 */
export const fileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A stamped document's file not stored yet is produced now (see `createDocumentFileProducer`).
  const producer = createDocumentFileProducer({
    storage: app.deps.storage,
    renderFiles: (...args) => app.deps.renderFiles(...args),
    onFailure: (documentId, error) =>
      app.log.error({ err: error, documentId }, "producing a document's files failed"),
  });
  const produceOnFirstDownload = async (key: string) => {
    try {
      return await producer.produce(app.deps.orm.em.fork(), key);
    } catch (error) {
      if (error instanceof FileRenderFailedError) throw notRendered();
      throw error;
    }
  };

  app.get(
    `${FILES_PATH}/*`,
    {
      schema: {
        tags: ['files'],
        operationId: 'retrieveFile',
        summary: 'Download a file',
        description: 'Download a file through a signed URL returned by the API (valid 15 minutes).',
        security: [],
        querystring: Type.Object({
          expires: Type.Optional(Type.String({ description: 'Unix time the URL stops working, as signed' })),
          signature: Type.Optional(Type.String({ description: 'HMAC of the key and expires, as signed' })),
        }),
        response: {
          200: {
            description: 'The file, with its stored Content-Type',
            content: Object.fromEntries(
              [
                'application/xml',
                'application/pdf',
                'application/zip',
                'image/png',
                'image/jpeg',
                'image/webp',
              ].map((type) => [type, { schema: Binary }]),
            ),
          },
          403: problemResponse(403),
          404: problemResponse(404),
        },
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isStorageKey(key)) throw forbidden('This file URL is not valid.');
      const check = app.deps.fileUrls.verify(key, request.query.expires, request.query.signature);
      if (!check.valid) {
        throw forbidden(
          check.reason === 'expired'
            ? 'This file URL has expired; fetch the resource again for a fresh one.'
            : 'This file URL is not valid (bad or missing signature).',
        );
      }
      // Streamed from storage: an export's ZIP of thousands of documents never sits whole in memory.
      const stored = await app.deps.storage.getStream(key);
      const file = stored ? null : await produceOnFirstDownload(key);
      if (!stored && !file) throw new NotFoundError('file');
      reply
        .header('content-type', stored?.contentType ?? file!.contentType)
        // The URL is a time-limited credential: shared caches must not keep the bytes beyond it.
        .header('cache-control', 'private, max-age=60')
        .header('x-content-type-options', 'nosniff');
      // The schema types the body as the bytes it documents; Fastify sends a stream of them as they are read.
      if (stored) return reply.header('content-length', stored.size).send(stored.stream as unknown as Buffer);
      return reply.send(file!.bytes);
    },
  );
};
