import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookAttempts,
  listWebhookEndpoints,
  retrieveWebhookEndpoint,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from '@cfdi/services';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import {
  DeletedWebhookEndpointSchema,
  WebhookAttemptSchema,
  WebhookEndpointCreateSchema,
  WebhookEndpointSchema,
  WebhookEndpointUpdateSchema,
  WebhookEndpointWithSecretSchema,
} from '../schemas/webhooks';

const tags = ['webhooks'];
const restricted =
  'Keys restricted to some merchants get 403: endpoints receive the events of every merchant.';

export const webhookEndpointRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const context = () => ({ em: app.deps.orm.em.fork(), masterKey: app.deps.config.masterKey });

  app.post(
    '/webhook_endpoints',
    {
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description: `Registers a URL for the events named in enabledEvents ("*" for all); at most 16 per account and mode. The whsec_ signing secret is in this answer only. ${restricted}`,
        body: WebhookEndpointCreateSchema,
        response: { 201: WebhookEndpointWithSecretSchema, ...problemResponses(400, 403, 503) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await createWebhookEndpoint(context(), request.scope, request.body)),
  );

  app.get(
    '/webhook_endpoints',
    {
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: `Endpoints of the key's account and mode, newest first. ${restricted}`,
        querystring: PaginationQuerySchema,
        response: { 200: ListSchema(WebhookEndpointSchema), ...problemResponses(400, 403) },
      },
    },
    async (request) =>
      listWebhookEndpoints(context(), request.scope, {
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'retrieveWebhookEndpoint',
        summary: 'Retrieve a webhook endpoint',
        description: 'The endpoint without its secret.',
        params: IdParamsSchema,
        response: { 200: WebhookEndpointSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => retrieveWebhookEndpoint(context(), request.scope, request.params.id),
  );

  app.patch(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint',
        description:
          'Changes url, enabledEvents or description; disabled: true stops deliveries, false enables the endpoint again (also after a 410 or 3 days of failures).',
        params: IdParamsSchema,
        body: WebhookEndpointUpdateSchema,
        response: { 200: WebhookEndpointSchema, ...problemResponses(400, 403, 404) },
      },
    },
    async (request) => updateWebhookEndpoint(context(), request.scope, request.params.id, request.body),
  );

  app.delete(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description:
          'Deliveries in flight stop at their next attempt; the attempts made stay listed on their events.',
        params: IdParamsSchema,
        response: { 200: DeletedWebhookEndpointSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => deleteWebhookEndpoint(context(), request.scope, request.params.id),
  );

  app.post(
    '/webhook_endpoints/:id/rotate_secret',
    {
      schema: {
        tags,
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Rotate the signing secret',
        description:
          'A new whsec_ secret, in this answer only. The replaced one keeps signing beside it for 24 hours: deliveries carry one v1 signature per secret.',
        params: IdParamsSchema,
        response: { 200: WebhookEndpointWithSecretSchema, ...problemResponses(403, 404, 503) },
      },
    },
    async (request) => rotateWebhookSecret(context(), request.scope, request.params.id),
  );

  app.get(
    '/webhook_endpoints/:id/attempts',
    {
      schema: {
        tags,
        operationId: 'listWebhookEndpointAttempts',
        summary: 'List delivery attempts of an endpoint',
        description:
          'Every attempt to this endpoint, newest first: time, status code, duration, the first 1 KB of the answer, error.',
        params: IdParamsSchema,
        querystring: PaginationQuerySchema,
        response: { 200: ListSchema(WebhookAttemptSchema), ...problemResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await retrieveWebhookEndpoint(context(), request.scope, request.params.id);
      return listWebhookAttempts(
        app.deps.orm.em.fork(),
        request.scope,
        { endpointId: request.params.id },
        { limit: request.query.limit, startingAfter: request.query.starting_after },
      );
    },
  );
};
