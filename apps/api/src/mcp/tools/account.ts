import { listMerchants, retrieveBalance } from '@cfdi/services';
import { merchantServices } from '../../routes/merchant-context';
import { BalanceSchema } from '../../schemas/billing';
import { ListSchema, PaginationQuerySchema } from '../../schemas/common';
import { MerchantSchema, type Merchant } from '../../schemas/merchants';
import { defineTool, pesos, ToolInput } from '../tool';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const listMerchantsTool = defineTool({
  name: 'list_merchants',
  description:
    'The issuers (merchants) this connection may stamp for: id (the merchantId of other tools), RFC, legal name, ' +
    'regime, serie, and whether a valid CSD is loaded (needed to stamp).',
  input: ToolInput(PaginationQuerySchema.properties),
  output: ListSchema(MerchantSchema),
  annotations: { title: 'List merchants', ...read },
  run: async ({ deps, scope }, args) => ({
    status: 200,
    body: await listMerchants(merchantServices(deps), scope, {
      limit: args.limit,
      startingAfter: args.starting_after,
    }),
  }),
  summarize: (list: { data: Merchant[]; has_more: boolean }) =>
    (list.data.length
      ? list.data
          .map(
            (m) =>
              `- ${m.id}: ${m.rfc} ${m.legalName}, regimen ${m.regimenFiscal}, serie ${m.serie}, CSD ${m.csd?.status ?? 'missing'}`,
          )
          .join('\n') +
        (list.has_more ? `\nMore exist: call again with starting_after=${list.data.at(-1)?.id}.` : '')
      : 'No merchants: create one (and upload its CSD) through the REST API or the console first.') as never,
});

export const getBalanceTool = defineTool({
  name: 'get_balance',
  description:
    "This account's prepaid balance in this mode (centavos), the next timbre's price and how many timbres it covers. " +
    'Every stamp and cancellation costs one; rejected stamps are refunded.',
  input: ToolInput({}),
  output: BalanceSchema,
  annotations: { title: 'Get balance', ...read },
  run: async ({ deps, scope }) => ({
    status: 200,
    body: await retrieveBalance(deps.orm.em.fork(), deps.config, scope),
  }),
  summarize: (b: {
    balanceCentavos: number;
    pricePerTimbreCentavos: number;
    timbresRemaining: number;
    livemode: boolean;
  }) =>
    (`Balance ${pesos(b.balanceCentavos / 100)} (${b.livemode ? 'live' : 'test'} mode): ${b.timbresRemaining} timbres at ` +
      `${pesos(b.pricePerTimbreCentavos / 100)} each.`) as never,
});

export const accountTools = [listMerchantsTool, getBalanceTool];
