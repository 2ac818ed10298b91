import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { syncGlobalInvoiceSchedule } from '@cfdi/temporal-contract/client';
import {
  createMerchant,
  deleteMerchant,
  listMerchants,
  retrieveMerchant,
  updateMerchant,
  ValidationError,
} from '@cfdi/services';
import { IdParamsSchema, ListSchema, PaginationQuerySchema, problemResponses } from '../schemas/common';
import {
  DeletedMerchantSchema,
  MerchantCreateSchema,
  MerchantSchema,
  MerchantUpdateSchema,
} from '../schemas/merchants';
import { merchantContext } from './merchant-context';
import type { AppDeps } from '../deps';

/**
 * A merchant's global-invoice Schedule follows its setting at once. The setting is already saved: when Temporal
 * cannot be reached the answer is still the merchant, and the periodic sync (every 10 minutes) brings the Schedule
 * in line.
 */
async function followGlobalSetting(
  deps: AppDeps,
  log: FastifyBaseLogger,
  merchant: { merchantId: string; enabled: boolean; deleted?: boolean },
): Promise<void> {
  try {
    await syncGlobalInvoiceSchedule(deps.temporal, merchant, deps.config.temporal.taskQueue);
  } catch (error) {
    log.error(
      { err: error, merchantId: merchant.merchantId },
      'global-invoice schedule not synced; the sync will',
    );
  }
}

const tags = ['merchants'];

export const merchantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/merchants',
    {
      schema: {
        tags,
        operationId: 'createMerchant',
        summary: 'Create a merchant',
        description: 'Create an issuer. 403 for keys restricted to some merchants.',
        body: MerchantCreateSchema,
        response: { 201: MerchantSchema, ...problemResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const merchant = await createMerchant(merchantContext(app), request.scope, request.body);
      if (merchant.globalInvoice.enabled)
        await followGlobalSetting(app.deps, request.log, { merchantId: merchant.id, enabled: true });
      return reply.code(201).send(merchant);
    },
  );

  app.get(
    '/merchants',
    {
      schema: {
        tags,
        operationId: 'listMerchants',
        summary: 'List merchants',
        description:
          "Merchants of the key's account and mode, newest first (deleted ones excluded; a restricted key sees its own).",
        querystring: PaginationQuerySchema,
        response: { 200: ListSchema(MerchantSchema), ...problemResponses(400) },
      },
    },
    async (request) =>
      listMerchants(merchantContext(app), request.scope, {
        limit: request.query.limit,
        startingAfter: request.query.starting_after,
      }),
  );

  app.get(
    '/merchants/:id',
    {
      schema: {
        tags,
        operationId: 'retrieveMerchant',
        summary: 'Retrieve a merchant',
        description: 'A merchant with its CSD metadata and a fresh logo URL.',
        params: IdParamsSchema,
        response: { 200: MerchantSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => retrieveMerchant(merchantContext(app), request.scope, request.params.id),
  );

  app.patch(
    '/merchants/:id',
    {
      schema: {
        tags,
        operationId: 'updateMerchant',
        summary: 'Update a merchant',
        description:
          'Update any field but the RFC (400 on /rfc). null clears the default product and unit keys. globalInvoice turns the automatic global invoice of receipts on or off (its Temporal Schedule follows at once) and sets its periodicity; receiptGraceDays applies to receipts created from then on. brandColor and pdfNote (null clears) apply to PDFs rendered from then on: a document whose PDF is already stored keeps it.',
        params: IdParamsSchema,
        body: MerchantUpdateSchema,
        response: { 200: MerchantSchema, ...problemResponses(400, 403, 404) },
      },
      // Before schema validation, so the answer explains why instead of calling rfc an unknown field.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null;
        if (body && typeof body === 'object' && 'rfc' in body) {
          throw ValidationError.field(
            '/rfc',
            'cannot be changed after creation; create a new merchant for another RFC',
          );
        }
      },
    },
    async (request) => {
      const merchant = await updateMerchant(
        merchantContext(app),
        request.scope,
        request.params.id,
        request.body,
      );
      if (request.body.globalInvoice)
        await followGlobalSetting(app.deps, request.log, {
          merchantId: merchant.id,
          enabled: merchant.globalInvoice.enabled,
        });
      return merchant;
    },
  );

  app.delete(
    '/merchants/:id',
    {
      schema: {
        tags,
        operationId: 'deleteMerchant',
        summary: 'Delete a merchant',
        description:
          'Soft delete: the merchant can no longer stamp and disappears from reads; its documents stay retrievable.',
        params: IdParamsSchema,
        response: { 200: DeletedMerchantSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => {
      const deleted = await deleteMerchant(merchantContext(app), request.scope, request.params.id);
      await followGlobalSetting(app.deps, request.log, {
        merchantId: deleted.id,
        enabled: false,
        deleted: true,
      });
      return deleted;
    },
  );
};
