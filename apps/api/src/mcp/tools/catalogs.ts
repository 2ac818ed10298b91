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
    'Search the SAT product/service keys (c_ClaveProdServ, 8 digits: the productCode of invoice items) by words in ' +
    'Spanish or a key prefix, e.g. "computadora portatil" or "4321". Accents and case are ignored; every word must match.',
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
    'Search the SAT unit keys (c_ClaveUnidad: the unitCode of invoice items), e.g. "pieza" (H87), "servicio" (E48), ' +
    '"kilogramo" (KGM). The symbol counts as a word.',
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
    'A whole small SAT catalog: usos-cfdi (usoCfdi values, with whether each applies to personas físicas and morales), ' +
    'regimenes (regimenFiscal values, likewise) or formas-pago (formaPago values: 01 cash, 03 transfer, 04 card, 99 to be defined…).',
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
