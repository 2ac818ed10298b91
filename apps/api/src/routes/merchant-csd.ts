import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { retrieveCsd, saveCsd } from '@cfdi/services';
import { IdParamsSchema, problemResponses } from '../schemas/common';
import { CsdSchema, CsdUploadSchema } from '../schemas/merchants';
import { merchantContext } from './merchant-context';

const tags = ['merchants'];
const uploadDescription =
  'Checked locally (base64, certificate, password, key pair, CSD not FIEL, validity, RFC; 400 with `subcode`), ' +
  'registered with the PAC (503 pac_unavailable when it is down; nothing is saved), then stored encrypted.';

export const merchantCsdRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/merchants/:id/csd',
    {
      schema: {
        tags,
        operationId: 'createMerchantCsd',
        summary: 'Upload the first CSD',
        description: `Upload the merchant's first CSD; 409 csd_already_exists when it has one (use PUT). ${uploadDescription}`,
        params: IdParamsSchema,
        body: CsdUploadSchema,
        response: { 201: CsdSchema, ...problemResponses(400, 403, 404, 409, 503) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await saveCsd(merchantContext(app), request.scope, request.params.id, request.body, 'create')),
  );

  app.put(
    '/merchants/:id/csd',
    {
      schema: {
        tags,
        operationId: 'replaceMerchantCsd',
        summary: 'Store or replace the CSD',
        description: `Store or replace the CSD; the previous one keeps sealing until the new one is saved. ${uploadDescription}`,
        params: IdParamsSchema,
        body: CsdUploadSchema,
        response: { 200: CsdSchema, ...problemResponses(400, 403, 404, 503) },
      },
    },
    async (request) =>
      saveCsd(merchantContext(app), request.scope, request.params.id, request.body, 'replace'),
  );

  app.get(
    '/merchants/:id/csd',
    {
      schema: {
        tags,
        operationId: 'retrieveMerchantCsd',
        summary: 'Retrieve the CSD metadata',
        description: 'CSD metadata (never the key); 404 when the merchant or its CSD is missing.',
        params: IdParamsSchema,
        response: { 200: CsdSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => retrieveCsd(merchantContext(app), request.scope, request.params.id),
  );
};
