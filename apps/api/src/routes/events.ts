import { randomBytes } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listEvents, listWebhookAttempts, planRedelivery, retrieveEvent, toEventView } from '@cfdi/services';
import {
  startWebhookDelivery,
  webhookRedeliveryWorkflowId,
  webhooksTaskQueue,
} from '@cfdi/temporal-contract/client';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import { EventSchema, RedeliverSchema, RedeliverySchema, WebhookAttemptSchema } from '../schemas/webhooks';

const tags = ['events'];

const ListQuerySchema = Type.Intersect([
  PaginationQuerySchema,
  Type.Object({
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'An event type, or a family such as invoice.*',
      }),
    ),
    createdFrom: Type.Optional(Type.String({ format: 'date-time' })),
    createdTo: Type.Optional(Type.String({ format: 'date-time' })),
  }),
]);

export const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const em = () => app.deps.orm.em.fork();

  app.get(
    '/events',
    {
      schema: {
        tags,
        operationId: 'listEvents',
        summary: 'List events',
        description:
          "Events of the key's account and mode, newest first, kept at least 30 days. A key restricted to some merchants sees theirs.",
        querystring: ListQuerySchema,
        response: { 200: ListSchema(EventSchema), ...problemResponses(400) },
      },
    },
    async (request) => {
      const { limit, starting_after: startingAfter, ...filters } = request.query;
      return listEvents(em(), request.scope, filters, { limit, startingAfter });
    },
  );

  app.get(
    '/events/:id',
    {
      schema: {
        tags,
        operationId: 'retrieveEvent',
        summary: 'Retrieve an event',
        description: 'The event exactly as delivered to webhook endpoints.',
        params: IdParamsSchema,
        response: { 200: EventSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => toEventView(await retrieveEvent(em(), request.scope, request.params.id)),
  );

  app.get(
    '/events/:id/attempts',
    {
      schema: {
        tags,
        operationId: 'listEventAttempts',
        summary: 'List delivery attempts of an event',
        description: 'Every attempt to deliver this event, to any endpoint, newest first.',
        params: IdParamsSchema,
        querystring: PaginationQuerySchema,
        response: { 200: ListSchema(WebhookAttemptSchema), ...problemResponses(400, 403, 404) },
      },
    },
    async (request) => {
      await retrieveEvent(em(), request.scope, request.params.id);
      return listWebhookAttempts(
        em(),
        request.scope,
        { eventId: request.params.id },
        { limit: request.query.limit, startingAfter: request.query.starting_after },
      );
    },
  );

  app.post(
    '/events/:id/redeliver',
    {
      schema: {
        tags,
        operationId: 'redeliverEvent',
        summary: 'Send an event again',
        description:
          "A new delivery (with retries) to the endpoint named, or to every enabled endpoint subscribed to the event's type.",
        params: IdParamsSchema,
        body: RedeliverSchema,
        response: { 202: RedeliverySchema, ...problemResponses(400, 403, 404) },
      },
      // The body is optional: without one the event goes to every subscribed endpoint.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { config, temporal } = app.deps;
      const endpointIds = await planRedelivery(
        em(),
        request.scope,
        request.params.id,
        request.body.webhookEndpointId,
      );
      const requestId = randomBytes(6).toString('hex');
      const retry = {
        firstSeconds: config.webhooks.retryFirstSeconds,
        maxSeconds: config.webhooks.retryMaxSeconds,
        windowSeconds: config.webhooks.retryWindowSeconds,
      };
      await Promise.all(
        endpointIds.map((endpointId) =>
          startWebhookDelivery(
            temporal,
            { eventId: request.params.id, endpointId, redelivery: true, retry },
            {
              taskQueue: webhooksTaskQueue(config.temporal.taskQueue),
              workflowId: webhookRedeliveryWorkflowId(request.params.id, endpointId, requestId),
            },
          ),
        ),
      );
      return reply.code(202).send({
        object: 'event_redelivery' as const,
        eventId: request.params.id,
        webhookEndpointIds: endpointIds,
      });
    },
  );
};
