import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listTransactions, listUsage, retrieveBalance, ServiceUnavailableError, TRANSACTION_TYPES } from '@cfdi/services';
import { ListSchema, PaginationQuerySchema, problemResponses, Timestamp } from '../schemas/common';

const BalanceSchema = Type.Object({
  object: Type.Literal('balance'),
  livemode: Type.Boolean(),
  balanceCentavos: Type.Integer(),
  currency: Type.Literal('MXN'),
  pricePerTimbreCentavos: Type.Integer(),
  timbresRemaining: Type.Integer(),
});

const TransactionSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('transaction'),
  livemode: Type.Boolean(),
  type: Type.String(),
  deltaCentavos: Type.Integer(),
  balanceAfterCentavos: Type.Integer(),
  referenceType: Type.Union([Type.String(), Type.Null()]),
  referenceId: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
});

const UsageMonthSchema = Type.Object({
  object: Type.Literal('usage_month'),
  month: Type.String(),
  livemode: Type.Boolean(),
  timbres: Type.Integer(),
  spentCentavos: Type.Integer(),
});

export const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/balance', {
    schema: { tags: ['billing'], description: 'Balance of the key\'s account and mode.', response: { 200: BalanceSchema, ...problemResponses() } },
  }, async (request) => retrieveBalance(app.deps.orm.em.fork(), app.deps.config, request.scope));

  app.get('/billing/transactions', {
    schema: {
      tags: ['billing'],
      description: 'The ledger, newest first. Keys restricted to some merchants get 403: the ledger names every merchant\'s documents.',
      querystring: Type.Intersect([PaginationQuerySchema, Type.Object({ type: Type.Optional(Type.Union(TRANSACTION_TYPES.map((t) => Type.Literal(t)))) })]),
      response: { 200: ListSchema(TransactionSchema), ...problemResponses(400, 403) },
    },
  }, async (request) =>
    listTransactions(app.deps.orm.em.fork(), request.scope, {
      limit: request.query.limit, startingAfter: request.query.starting_after, type: request.query.type,
    }));

  app.get('/billing/usage', {
    schema: {
      tags: ['billing'],
      description: 'Timbres and spend per month, newest first.',
      querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 24, default: 12 }) }),
      response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(UsageMonthSchema) }), ...problemResponses(400) },
    },
  }, async (request) => listUsage(app.deps.orm.em.fork(), request.scope, request.query.limit));

  // Stripe is not configured in this build: both top-up entry points say so explicitly.
  app.post('/billing/checkout_sessions', {
    schema: {
      tags: ['billing'],
      description: 'Stripe Checkout for a top-up. 503 billing_unavailable when Stripe is not configured.',
      body: Type.Object({ amountCentavos: Type.Integer({ minimum: 10000, maximum: 5000000 }) }, { additionalProperties: false }),
      response: problemResponses(400, 503),
    },
  }, async () => {
    throw new ServiceUnavailableError('billing_unavailable', 'Billing is not configured on this server (no Stripe credentials).');
  });

  app.post('/billing/portal_sessions', {
    schema: { tags: ['billing'], description: 'Stripe billing portal. 503 billing_unavailable when Stripe is not configured.', response: problemResponses(503) },
  }, async () => {
    throw new ServiceUnavailableError('billing_unavailable', 'Billing is not configured on this server (no Stripe credentials).');
  });
};
