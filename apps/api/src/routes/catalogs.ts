import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { problemResponses } from '../schemas/common';
import {
  CatalogListSchema,
  FormaPagoSchema,
  PersonaTypesSchema,
  ProductSchema,
  SearchQuerySchema,
  UnitSchema,
} from '../schemas/catalogs';

const list = <T>(data: T[]) => ({ object: 'list' as const, data });

export const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // In-process index loaded from PostgreSQL on first use; reloads when an import bumps catalog_versions.
  const catalogs = app.deps.catalogs;

  app.get(
    '/catalogs/products',
    {
      schema: {
        tags: ['catalogs'],
        operationId: 'listProducts',
        summary: 'Search product keys',
        description:
          'Search the SAT product/service keys (c_ClaveProdServ). Without keyword: the first keys in order.',
        querystring: SearchQuerySchema,
        response: { 200: CatalogListSchema(ProductSchema), ...problemResponses(400) },
      },
    },
    async (request) => list(await catalogs.searchProducts(request.query.keyword, request.query.limit)),
  );

  app.get(
    '/catalogs/units',
    {
      schema: {
        tags: ['catalogs'],
        operationId: 'listUnits',
        summary: 'Search unit keys',
        description: 'Search the SAT unit keys (c_ClaveUnidad); the symbol counts as a synonym.',
        querystring: SearchQuerySchema,
        response: { 200: CatalogListSchema(UnitSchema), ...problemResponses(400) },
      },
    },
    async (request) => list(await catalogs.searchUnits(request.query.keyword, request.query.limit)),
  );

  app.get(
    '/catalogs/usos-cfdi',
    {
      schema: {
        tags: ['catalogs'],
        operationId: 'listUsosCfdi',
        summary: 'List CFDI uses',
        description: 'Every current CFDI use (c_UsoCFDI).',
        response: { 200: CatalogListSchema(PersonaTypesSchema), ...problemResponses() },
      },
    },
    async () => list(await catalogs.listUsosCfdi()),
  );

  app.get(
    '/catalogs/regimenes',
    {
      schema: {
        tags: ['catalogs'],
        operationId: 'listRegimenes',
        summary: 'List fiscal regimes',
        description: 'Every current fiscal regime (c_RegimenFiscal).',
        response: { 200: CatalogListSchema(PersonaTypesSchema), ...problemResponses() },
      },
    },
    async () => list(await catalogs.listRegimenes()),
  );

  app.get(
    '/catalogs/formas-pago',
    {
      schema: {
        tags: ['catalogs'],
        operationId: 'listFormasPago',
        summary: 'List payment forms',
        description: 'Every current payment form (c_FormaPago).',
        response: { 200: CatalogListSchema(FormaPagoSchema), ...problemResponses() },
      },
    },
    async () => list(await catalogs.listFormasPago()),
  );
};
