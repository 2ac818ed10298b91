import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Binary, IdParamsSchema, problemResponses } from '../schemas/common';
import { DraftPatchSchema, IdempotencyHeadersSchema, StampingSchema } from '../schemas/documents';
import { copyToDraftOf, deleteDraftOf, previewOf, stampDraftOf, updateDraftOf } from '../operations/drafts';
import { idempotencyKeyOf, sendAnswer } from '../routes/send-answer';
import type { DocumentResource, DraftFaces, RouteTexts } from './declaration';

/** The draft routes of a resource that has drafts: edit, stamp, delete, copy and preview, on `{path}/:id`. */
export function draftRoutes(
  resource: DocumentResource<RouteTexts>,
  texts: DraftFaces,
): FastifyPluginAsyncTypebox {
  const texted = (t: { operationId: string; summary: string; description: string }) => ({
    tags: [resource.tag],
    operationId: t.operationId,
    summary: t.summary,
    description: t.description,
  });
  return async (app) => {
    const deps = app.deps;
    const one = `${resource.path}/:id`;
    app.patch(
      one,
      {
        schema: {
          ...texted(texts.update),
          params: IdParamsSchema,
          body: DraftPatchSchema,
          response: { 200: resource.schema, ...problemResponses(400, 403, 404, 409) },
        },
      },
      async (request) => updateDraftOf(deps, request.scope, request.params.id, request.body),
    );

    app.post(
      `${one}/stamp`,
      {
        schema: {
          ...texted(texts.stamp),
          params: IdParamsSchema,
          headers: IdempotencyHeadersSchema,
          response: {
            201: resource.schema,
            202: StampingSchema,
            ...problemResponses(400, 402, 403, 404, 409, 422, 503),
          },
        },
      },
      async (request, reply) =>
        sendAnswer(
          reply,
          await stampDraftOf(
            deps,
            request.scope,
            resource.path,
            request.params.id,
            idempotencyKeyOf(request),
            request.log,
          ),
        ),
    );

    app.delete(
      one,
      {
        schema: {
          ...texted(texts.del),
          params: IdParamsSchema,
          response: { 204: Type.Null({ description: 'Deleted' }), ...problemResponses(404, 409) },
        },
      },
      async (request, reply) => {
        await deleteDraftOf(deps, request.scope, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      `${one}/copy`,
      {
        schema: {
          ...texted(texts.copy),
          params: IdParamsSchema,
          response: { 201: resource.schema, ...problemResponses(403, 404) },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await copyToDraftOf(deps, request.scope, request.params.id)),
    );

    app.get(
      `${one}/preview.pdf`,
      {
        schema: {
          ...texted(texts.preview),
          params: IdParamsSchema,
          response: {
            200: {
              description: 'The PDF',
              content: { 'application/pdf': { schema: Binary } },
            },
            ...problemResponses(404, 409),
          },
        },
      },
      async (request, reply) =>
        reply
          .header('content-type', 'application/pdf')
          .header('cache-control', 'no-store')
          .send(await previewOf(deps, request.scope, request.params.id)),
    );
  };
}
