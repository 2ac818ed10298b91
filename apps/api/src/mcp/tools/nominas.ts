import { createNomina, listNominas, retrieveNomina } from '../../operations/documents';
import { cancelDocument } from '../../operations/cancellations';
import { IdParamsSchema, ListSchema } from '../../schemas/common';
import { StampingSchema } from '../../schemas/documents';
import { NominaCreateSchema, NominaListQuerySchema, NominaSchema } from '../../schemas/nominas';
import { CancelRequestSchema } from '../../schemas/payments';
import { defineTool, IdempotencyKeyProperty, OneOfShapes, ToolInput, withIdempotencyKey } from '../tool';
import { documentSummary, listSummary } from './summaries';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const createNominaTool = defineTool({
  name: 'create_nomina',
  description: 'Stamp one payroll receipt (CFDI type N with the Nómina 1.2 complement; one timbre) for one employee and period. '
    + 'Send the employer (merchantId), the employee, the period and the percepciones/deducciones/otrosPagos in MXN pesos; the '
    + 'server computes every total, the Antigüedad and the Comprobante. Each SAT payroll rule that fails comes back as an error '
    + 'naming the field and its NOM code. Dates are YYYY-MM-DD, Mexico City. Waits up to 20 s like create_invoice.',
  input: ToolInput({ ...NominaCreateSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: OneOfShapes(NominaSchema, StampingSchema),
  shapeOf: (status) => (status === 202 ? StampingSchema : NominaSchema),
  annotations: { title: 'Create payroll receipt', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ deps, scope, log }, args) {
    const { key, body } = withIdempotencyKey(args);
    return { ...(await createNomina(deps, scope, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const getNominaTool = defineTool({
  name: 'get_nomina',
  description: 'Read one payroll receipt by id (nom_…): status, UUID, employee, period, totals and net pay in MXN pesos, '
    + 'cancellation and signed XML/PDF links valid 15 minutes.',
  input: ToolInput({ id: IdParamsSchema.properties.id }),
  output: NominaSchema,
  annotations: { title: 'Get payroll receipt', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await retrieveNomina(deps, scope, args.id) }),
  summarize: documentSummary,
});

export const listNominasTool = defineTool({
  name: 'list_nominas',
  description: 'List payroll receipts, newest first, by employer (merchantId), status, UUID, employee RFC, payment date range '
    + '(YYYY-MM-DD) or creation time (ISO 8601 UTC). Pages of `limit` (default 10, at most 100); starting_after = the last id.',
  input: ToolInput(NominaListQuerySchema.properties),
  output: ListSchema(NominaSchema),
  annotations: { title: 'List payroll receipts', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await listNominas(deps, scope, args) }),
  summarize: (list: never) => listSummary('payroll receipts', list),
});

export const cancelNominaTool = defineTool({
  name: 'cancel_nomina',
  description: 'Ask the SAT to cancel a stamped payroll receipt (one timbre); payroll is cancelled without the employee\'s '
    + 'acceptance. motivo as for cancel_invoice (01 needs folioSustitucion, the UUID of the receipt that replaces it).',
  input: ToolInput({ id: IdParamsSchema.properties.id, ...CancelRequestSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: NominaSchema,
  annotations: { title: 'Cancel payroll receipt', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ deps, scope, log }, args) {
    const { key, body: { id, ...body } } = withIdempotencyKey(args);
    return { ...(await cancelDocument(deps, scope, 'nomina', id, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const nominaTools = [createNominaTool, getNominaTool, listNominasTool, cancelNominaTool];
