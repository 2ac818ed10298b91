import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { applyStripeEvent, verifyStripeEvent } from '@cfdi/services';
import { ProblemSchema } from '../schemas/common';

/**
 * Stripe's webhook, outside /v1 and without an API key: the `Stripe-Signature` over the exact bytes received is
 * the credential, so this plugin keeps the body raw instead of parsing JSON.
 */
export const stripeWebhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/stripe/webhook',
    {
      schema: {
        tags: ['billing'],
        operationId: 'receiveStripeEvent',
        summary: 'Receive a Stripe event',
        description:
          'Stripe Checkout events, verified with the webhook signing secret (5 minutes tolerance). A paid session credits its ' +
          'purchase exactly once; a failed async payment or an expired session marks it failed. 400 for a bad or stale signature.',
        security: [],
        headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String()) }),
        response: {
          200: Type.Object({ received: Type.Literal(true) }),
          400: Type.Ref(ProblemSchema),
          503: Type.Ref(ProblemSchema),
        },
      },
    },
    async (request) => {
      const payload = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { mode, event } = verifyStripeEvent(
        app.deps.stripe,
        payload,
        request.headers['stripe-signature'],
      );
      const outcome = await applyStripeEvent(app.deps.orm.em.fork(), mode, event);
      request.log.info(
        { stripeEvent: event.id, type: event.type, livemode: mode.livemode, outcome },
        'stripe event',
      );
      return { received: true as const };
    },
  );
};
