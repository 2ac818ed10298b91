import { Type, type Static } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '@cfdi/services';
import { Timestamp } from './common';
import { named } from '../openapi-components';

const enabledEvents = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: `Event types to receive, or "*" for all: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
});
const url = Type.String({
  minLength: 1,
  description:
    'Live: https to a public address. Test: http or https, also to localhost / loopback (a local receiver).',
});
const description = Type.String({ maxLength: 500, description: 'Your note about the endpoint' });

export const WebhookEndpointCreateSchema = named(
  'WebhookEndpointCreate',
  Type.Object(
    {
      url,
      enabledEvents,
      description: Type.Optional(description),
    },
    { additionalProperties: false },
  ),
);

export const WebhookEndpointUpdateSchema = named(
  'WebhookEndpointUpdate',
  Type.Object(
    {
      url: Type.Optional(url),
      enabledEvents: Type.Optional(enabledEvents),
      description: Type.Optional(Type.Union([description, Type.Null()], { description: 'null clears it' })),
      disabled: Type.Optional(
        Type.Boolean({ description: 'true stops deliveries; false enables the endpoint again' }),
      ),
    },
    { additionalProperties: false },
  ),
);

const endpointFields = {
  id: Type.String(),
  object: Type.Literal('webhook_endpoint'),
  livemode: Type.Boolean(),
  url: Type.String({ description: 'Where events are POSTed' }),
  description: Type.Union([Type.String(), Type.Null()], {
    description: 'Your note about the endpoint; null when none',
  }),
  enabledEvents: Type.Array(Type.String()),
  disabled: Type.Boolean(),
  disabledReason: Type.Union(
    [Type.Literal('requested'), Type.Literal('gone'), Type.Literal('failing'), Type.Null()],
    {
      description: 'requested (PATCH), gone (the receiver answered 410), failing (3 days of failed attempts)',
    },
  ),
  failingSince: Type.Union([Timestamp, Type.Null()], {
    description: 'Start of the current run of failed attempts',
  }),
  previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
    description: 'Until then the replaced secret also signs',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const WebhookEndpointSchema = named('WebhookEndpoint', Type.Object(endpointFields));
export const WebhookEndpointWithSecretSchema = named(
  'WebhookEndpointWithSecret',
  Type.Object({
    ...endpointFields,
    secret: Type.String({ description: 'whsec_… signing secret; shown in this answer only' }),
  }),
);
export const DeletedWebhookEndpointSchema = named(
  'DeletedWebhookEndpoint',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('webhook_endpoint'),
    deleted: Type.Literal(true),
  }),
);

export const WebhookAttemptSchema = named(
  'WebhookAttempt',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('webhook_attempt'),
    livemode: Type.Boolean(),
    eventId: Type.String(),
    webhookEndpointId: Type.String(),
    url: Type.String({ description: 'The URL the attempt was sent to' }),
    redelivery: Type.Boolean(),
    succeeded: Type.Boolean(),
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: 'null when no HTTP answer came (timeout, reset, refused)',
    }),
    durationMs: Type.Integer(),
    responseBody: Type.Union([Type.String(), Type.Null()], {
      description: "First 1 KB of the endpoint's answer; null when none came",
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why no answer came (timeout, refused, TLS…); null when the endpoint answered',
    }),
    createdAt: Timestamp,
  }),
);

export const EventSchema = named(
  'Event',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('event'),
    type: Type.String({
      description: 'What happened, e.g. invoice.stamped, invoice.cancelled, payment.stamped',
    }),
    livemode: Type.Boolean(),
    createdAt: Timestamp,
    data: Type.Object(
      {
        object: Type.Unknown({
          description: 'The resource as GET returns it when the event happened (no signed URLs)',
        }),
      },
      { description: 'What the event is about' },
    ),
  }),
);

export const RedeliverSchema = named(
  'RedeliverRequest',
  Type.Object(
    {
      webhookEndpointId: Type.Optional(
        Type.String({ minLength: 1, description: 'Default: every enabled endpoint subscribed to the type' }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const RedeliverySchema = named(
  'Redelivery',
  Type.Object({
    object: Type.Literal('event_redelivery'),
    eventId: Type.String(),
    webhookEndpointIds: Type.Array(Type.String()),
  }),
);

export type WebhookEndpointCreate = Static<typeof WebhookEndpointCreateSchema>;
