import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common';
import {
  CatalogListSchema,
  FormaPagoSchema,
  PersonaTypesSchema,
  ProductSchema,
  SearchQuerySchema,
  UnitSchema,
} from '../../schemas/catalogs';
import { defineTool, ToolInput } from '../tool';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const entries = (list: { data: { clave: string; nombre: string; simbolo?: string | null }[] }) =>
  (list.data.length
    ? list.data.map((e) => `- ${e.clave}: ${e.nombre}${e.simbolo ? ` (${e.simbolo})` : ''}`).join('\n')
    : 'Nothing matches; try a shorter or more general word (Spanish works best).') as never;

export const searchProductCodesTool = defineTool({
  name: 'search_product_codes',
  description:
    'Search the SAT product/service keys (c_ClaveProdServ: the productCode of items) by Spanish words or a key ' +
    'prefix, e.g. "computadora portatil" or "4321".',
  input: ToolInput(SearchQuerySchema.properties),
  output: CatalogListSchema(ProductSchema),
  annotations: { title: 'Search product codes', ...read },
  run: async ({ deps }, args) => ({
    status: 200,
    body: { object: 'list', data: await deps.catalogs.searchProducts(args.keyword, args.limit) },
  }),
  summarize: entries,
});

export const searchUnitCodesTool = defineTool({
  name: 'search_unit_codes',
  description:
    'Search the SAT unit keys (c_ClaveUnidad: the unitCode of items) by Spanish words or the symbol, e.g. "pieza" ' +
    '(H87), "servicio" (E48), "kilogramo" (KGM).',
  input: ToolInput(SearchQuerySchema.properties),
  output: CatalogListSchema(UnitSchema),
  annotations: { title: 'Search unit codes', ...read },
  run: async ({ deps }, args) => ({
    status: 200,
    body: { object: 'list', data: await deps.catalogs.searchUnits(args.keyword, args.limit) },
  }),
  summarize: entries,
});

const CATALOGS = ['usos-cfdi', 'regimenes', 'formas-pago'] as const;
const CatalogEntry = Type.Union([PersonaTypesSchema, FormaPagoSchema]);

export const getCatalogTool = defineTool({
  name: 'get_catalog',
  description:
    "A small SAT catalog with each key's name: usos-cfdi (usoCfdi) or regimenes (regimenFiscal), each saying whether " +
    'it applies to personas físicas and morales, or formas-pago (formaPago).',
  input: ToolInput({ catalog: StringEnum(CATALOGS, { description: 'Which catalog' }) }),
  output: CatalogListSchema(CatalogEntry),
  annotations: { title: 'Get catalog', ...read },
  async run({ deps }, args) {
    const load = {
      'usos-cfdi': () => deps.catalogs.listUsosCfdi(),
      regimenes: () => deps.catalogs.listRegimenes(),
      'formas-pago': () => deps.catalogs.listFormasPago(),
    };
    return { status: 200, body: { object: 'list', data: await load[args.catalog]() } };
  },
  summarize: entries,
});

export const catalogTools = [searchProductCodesTool, searchUnitCodesTool, getCatalogTool];
