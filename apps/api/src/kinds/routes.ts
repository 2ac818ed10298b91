import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, StampingSchema } from '../schemas/documents';
import { CancelRequestSchema } from '../schemas/payments';
import { createDocument, listOf, retrieveOf } from '../operations/documents';
import { cancelDocument } from '../operations/cancellations';
import { listEmailsOf, sendDocumentEmail } from '../operations/emails';
import { EmailDeliverySchema, EmailRequestSchema } from '../schemas/emails';
import { idempotencyKeyOf, sendAnswer } from '../routes/send-answer';
import type { ApiDocumentKind, DocumentResource, RouteTexts } from './declaration';
import { draftRoutes } from './draft-routes';
import { DOCUMENT_FACES } from './kinds';

/** The REST route that creates and stamps a document of a kind (the operation name its Idempotency-Keys use). */
export const createOperation = (kind: ApiDocumentKind<RouteTexts>, parentId?: string) =>
  `POST /v1${parentId ? kind.path.replace(':id', parentId) : kind.path}`;

/** Every document route: for each resource, its kinds' creates, then read, list and cancel. */
export const documentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { resource, kinds } of DOCUMENT_FACES) {
    for (const kind of kinds) await app.register(createRoute(kind));
    await app.register(resourceRoutes(resource));
    if (resource.drafts) await app.register(draftRoutes(resource, resource.drafts));
  }
};

function createRoute(kind: ApiDocumentKind<RouteTexts>): FastifyPluginAsyncTypebox {
  const hangs = kind.path.includes(':id');
  return async (app) => {
    const deps = app.deps;
    app.post(
      kind.path,
      {
        schema: {
          tags: [kind.tag ?? kind.resource.tag],
          operationId: kind.create.operationId,
          summary: kind.create.summary,
          description: kind.create.description,
          ...(hangs ? { params: IdParamsSchema } : {}),
          headers: IdempotencyHeadersSchema,
          body: kind.body,
          response: {
            201: kind.resource.schema,
            202: StampingSchema,
            ...problemResponses(400, 402, 403, 404, 409, 422, 503),
          },
        },
      },
      async (request, reply) => {
        const parentId = hangs ? (request.params as { id: string }).id : undefined;
        return sendAnswer(
          reply,
          await createDocument(
            deps,
            request.scope,
            kind.kind,
            createOperation(kind, parentId),
            request.body,
            idempotencyKeyOf(request),
            request.log,
            parentId,
          ),
        );
      },
    );
  };
}

function resourceRoutes(resource: DocumentResource<RouteTexts>): FastifyPluginAsyncTypebox {
  return async (app) => {
    const deps = app.deps;
    app.get(
      `${resource.path}/:id`,
      {
        schema: {
          tags: [resource.tag],
          operationId: resource.retrieve.operationId,
          summary: resource.retrieve.summary,
          description: resource.retrieve.description,
          params: IdParamsSchema,
          response: { 200: resource.schema, ...problemResponses(403, 404) },
        },
      },
      async (request) => retrieveOf(deps, request.scope, resource.type, request.params.id),
    );

    app.get(
      resource.path,
      {
        schema: {
          tags: [resource.tag],
          operationId: resource.list.operationId,
          summary: resource.list.summary,
          description: resource.list.description,
          querystring: resource.listQuery,
          response: { 200: ListSchema(resource.schema), ...problemResponses(400) },
        },
      },
      async (request) => listOf(deps, request.scope, resource.type, request.query as never),
    );

    app.post(
      `${resource.path}/:id/cancel`,
      {
        schema: {
          tags: [resource.tag],
          operationId: resource.cancel.operationId,
          summary: resource.cancel.summary,
          description: resource.cancel.description,
          params: IdParamsSchema,
          headers: IdempotencyHeadersSchema,
          body: CancelRequestSchema,
          response: { 202: resource.schema, ...problemResponses(400, 402, 403, 404, 409, 422, 503) },
        },
      },
      async (request, reply) =>
        sendAnswer(
          reply,
          await cancelDocument(
            deps,
            request.scope,
            resource.type,
            request.params.id,
            request.body,
            idempotencyKeyOf(request),
            request.log,
          ),
        ),
    );

    const { email, emails } = resource;
    // A resource that does not print has nothing to e-mail (the message is its PDF and XML).
    if (!email || !emails) return;
    app.post(
      `${resource.path}/:id/email`,
      {
        schema: {
          tags: [resource.tag],
          operationId: email.operationId,
          summary: email.summary,
          description: email.description,
          params: IdParamsSchema,
          body: EmailRequestSchema,
          response: { 202: EmailDeliverySchema, ...problemResponses(404, 409, 503) },
        },
      },
      async (request, reply) =>
        sendAnswer(
          reply,
          await sendDocumentEmail(deps, request.scope, resource.type, request.params.id, request.body),
        ),
    );

    app.get(
      `${resource.path}/:id/emails`,
      {
        schema: {
          tags: [resource.tag],
          operationId: emails.operationId,
          summary: emails.summary,
          description: emails.description,
          params: IdParamsSchema,
          querystring: PaginationQuerySchema,
          response: { 200: ListSchema(EmailDeliverySchema), ...problemResponses(404) },
        },
      },
      async (request) => listEmailsOf(deps, request.scope, resource.type, request.params.id, request.query),
    );
  };
}
