import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
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
    async (request, reply) =>
      reply.code(201).send(await createMerchant(merchantContext(app), request.scope, request.body)),
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
          'Update any field but the RFC (400 on /rfc). null clears the default product and unit keys.',
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
    async (request) => updateMerchant(merchantContext(app), request.scope, request.params.id, request.body),
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
    async (request) => deleteMerchant(merchantContext(app), request.scope, request.params.id),
  );
};
