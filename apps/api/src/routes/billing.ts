import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  createCheckoutSession,
  createPortalSession,
  listPurchases,
  listTransactions,
  listUsage,
  retrieveBalance,
  TOP_UP_MAX_CENTAVOS,
  TOP_UP_MIN_CENTAVOS,
  TRANSACTION_TYPES,
} from '@cfdi/services';
import {
  ListSchema,
  PaginationQuerySchema,
  problemResponses,
  StringEnum,
  Timestamp,
} from '../schemas/common';
import { BalanceSchema } from '../schemas/billing';
import { named } from '../openapi-components';

const TransactionSchema = named(
  'Transaction',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('transaction'),
    livemode: Type.Boolean(),
    type: Type.String({
      description: `What moved the balance: ${TRANSACTION_TYPES.join(', ')}`,
    }),
    deltaCentavos: Type.Integer(),
    balanceAfterCentavos: Type.Integer(),
    referenceType: Type.Union([Type.String(), Type.Null()]),
    referenceId: Type.Union([Type.String(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
  }),
);

const UsageMonthSchema = named(
  'UsageMonth',
  Type.Object({
    object: Type.Literal('usage_month'),
    month: Type.String(),
    livemode: Type.Boolean(),
    timbres: Type.Integer(),
    spentCentavos: Type.Integer(),
  }),
);

const PurchaseSchema = named(
  'Purchase',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('purchase'),
    livemode: Type.Boolean(),
    status: StringEnum(['pending', 'succeeded', 'failed'] as const, {
      description: 'pending until Stripe reports the payment, then succeeded (credited) or failed',
    }),
    amountCentavos: Type.Integer({ description: 'What the buyer asked for' }),
    currency: Type.Literal('MXN'),
    creditedCentavos: Type.Union([Type.Integer(), Type.Null()], {
      description: 'What Stripe reported paid, credited to the balance',
    }),
    checkoutSessionId: Type.Union([Type.String(), Type.Null()]),
    transactionId: Type.Union([Type.String(), Type.Null()], {
      description: 'The ledger `purchase` transaction once credited',
    }),
    failureReason: Type.Union([
      StringEnum(['payment_failed', 'expired', 'checkout_not_created', 'currency_not_mxn'] as const),
      Type.Null(),
    ]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  }),
);

const CheckoutSessionSchema = named(
  'CheckoutSession',
  Type.Object({
    object: Type.Literal('checkout_session'),
    url: Type.String({ description: 'Stripe-hosted page to redirect the buyer to' }),
    purchaseId: Type.String(),
    checkoutSessionId: Type.String(),
    amountCentavos: Type.Integer(),
    currency: Type.Literal('MXN'),
  }),
);

const PortalSessionSchema = named(
  'PortalSession',
  Type.Object({
    object: Type.Literal('portal_session'),
    url: Type.String({ description: 'Stripe-hosted page for receipts and payment methods' }),
  }),
);

export const billingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/balance',
    {
      schema: {
        tags: ['billing'],
        operationId: 'retrieveBalance',
        summary: 'Retrieve the balance',
        description:
          "Balance of the key's account and mode, with the month's volume tier and the next one (extra fields).",
        response: { 200: BalanceSchema, ...problemResponses() },
      },
    },
    async (request) => retrieveBalance(app.deps.orm.em.fork(), app.deps.config, request.scope),
  );

  app.get(
    '/billing/transactions',
    {
      schema: {
        tags: ['billing'],
        operationId: 'listTransactions',
        summary: 'List ledger transactions',
        description:
          "The ledger, newest first. Keys restricted to some merchants get 403: the ledger names every merchant's documents.",
        querystring: Type.Intersect([
          PaginationQuerySchema,
          Type.Object({
            type: Type.Optional(
              Type.Union(
                TRANSACTION_TYPES.map((t) => Type.Literal(t)),
                { description: 'Only transactions of this type' },
              ),
            ),
          }),
        ]),
        response: { 200: ListSchema(TransactionSchema), ...problemResponses(400, 403) },
      },
    },
    async (request) =>
      listTransactions(app.deps.orm.em.fork(), request.scope, {
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
        type: request.query.type,
      }),
  );

  app.get(
    '/billing/usage',
    {
      schema: {
        tags: ['billing'],
        operationId: 'listUsage',
        summary: 'List monthly usage',
        description: 'Timbres and spend per month, newest first.',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 24, default: 12 }) }),
        response: {
          200: Type.Object({
            object: Type.Literal('list'),
            data: Type.Array(UsageMonthSchema, {
              description: 'One entry per month with usage, newest first',
            }),
          }),
          ...problemResponses(400),
        },
      },
    },
    async (request) => listUsage(app.deps.orm.em.fork(), request.scope, request.query.limit),
  );

  const billing = () => ({ em: app.deps.orm.em.fork(), stripe: app.deps.stripe });

  app.post(
    '/billing/checkout_sessions',
    {
      schema: {
        tags: ['billing'],
        operationId: 'createCheckoutSession',
        summary: 'Top up the balance',
        description:
          'A Stripe Checkout session (MXN) for a top-up and its pending purchase; the balance is credited when Stripe ' +
          "confirms the payment. Test keys use Stripe's test mode and credit the test balance. 503 billing_unavailable when " +
          "Stripe is not configured for the key's mode or cannot be reached.",
        body: named(
          'CheckoutSessionCreate',
          Type.Object(
            {
              amountCentavos: Type.Integer({
                minimum: TOP_UP_MIN_CENTAVOS,
                maximum: TOP_UP_MAX_CENTAVOS,
                description:
                  'The top-up in centavos (MXN × 100), credited to the balance once Stripe confirms it',
              }),
            },
            { additionalProperties: false },
          ),
        ),
        response: { 201: CheckoutSessionSchema, ...problemResponses(400, 503) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createCheckoutSession(billing(), request.scope, request.body.amountCentavos)),
  );

  app.post(
    '/billing/portal_sessions',
    {
      schema: {
        tags: ['billing'],
        operationId: 'createPortalSession',
        summary: 'Open the billing portal',
        description:
          "A Stripe billing portal session (receipts, payment methods) for the account's Stripe customer. 503 billing_unavailable when Stripe is not configured.",
        response: { 201: PortalSessionSchema, ...problemResponses(503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createPortalSession(billing(), request.scope)),
  );

  app.get(
    '/billing/purchases',
    {
      schema: {
        tags: ['billing'],
        operationId: 'listPurchases',
        summary: 'List top-ups',
        description: "Top-ups of the key's account and mode with their status, newest first.",
        querystring: PaginationQuerySchema,
        response: { 200: ListSchema(PurchaseSchema), ...problemResponses(400) },
      },
    },
    async (request) =>
      listPurchases(app.deps.orm.em.fork(), request.scope, {
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
      }),
  );
};
