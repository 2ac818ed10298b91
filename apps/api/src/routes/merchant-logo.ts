import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { deleteMerchantLogo, putMerchantLogo } from '@cfdi/services';
import { IdParamsSchema, problemResponses } from '../schemas/common';
import { LogoUploadSchema, MerchantSchema } from '../schemas/merchants';
import { merchantContext } from './merchant-context';

const tags = ['merchants'];

export const merchantLogoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/merchants/:id/logo',
    {
      schema: {
        tags,
        operationId: 'updateMerchantLogo',
        summary: 'Set the logo',
        description:
          'Set the logo printed in the PDF header: PNG, JPEG or WebP (by content), at most 500 KB decoded.',
        params: IdParamsSchema,
        body: LogoUploadSchema,
        response: { 200: MerchantSchema, ...problemResponses(400, 403, 404) },
      },
    },
    async (request) =>
      putMerchantLogo(merchantContext(app), request.scope, request.params.id, request.body.logo),
  );

  app.delete(
    '/merchants/:id/logo',
    {
      schema: {
        tags,
        operationId: 'deleteMerchantLogo',
        summary: 'Remove the logo',
        description: 'Remove the logo; PDFs then show only the legal name.',
        params: IdParamsSchema,
        response: { 200: MerchantSchema, ...problemResponses(403, 404) },
      },
    },
    async (request) => deleteMerchantLogo(merchantContext(app), request.scope, request.params.id),
  );
};
