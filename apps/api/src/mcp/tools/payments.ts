import { Type } from '@sinclair/typebox';
import { createPayment, listPayments, retrievePayment } from '../../operations/documents';
import { cancelDocument } from '../../operations/cancellations';
import { IdParamsSchema, ListSchema } from '../../schemas/common';
import { StampingSchema } from '../../schemas/documents';
import { CancelRequestSchema, PaymentCreateSchema, PaymentListQuerySchema, PaymentSchema } from '../../schemas/payments';
import { defineTool, IdempotencyKeyProperty, OneOfShapes, ToolInput, withIdempotencyKey } from '../tool';
import { documentSummary, listSummary } from './summaries';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const createPaymentTool = defineTool({
  name: 'create_payment',
  description: 'Record money received for a stamped PPD invoice and stamp its payment complement (REP, Pagos 2.0; one timbre). '
    + 'monto is MXN pesos, at most the invoice\'s outstanding balance (saldoPendiente); formaPago is how it arrived (03 transfer, '
    + '01 cash…, never 99); fechaPago is Mexico City local time YYYY-MM-DDTHH:MM:SS, default now, never in the future. The '
    + 'installment number and balances are computed by the server. Waits up to 20 s like create_invoice.',
  input: ToolInput({
    invoiceId: Type.String({ minLength: 1, description: 'The PPD invoice paid (inv_…)' }),
    ...PaymentCreateSchema.properties,
    idempotency_key: IdempotencyKeyProperty,
  }),
  output: OneOfShapes(PaymentSchema, StampingSchema),
  shapeOf: (status) => (status === 202 ? StampingSchema : PaymentSchema),
  annotations: { title: 'Create payment complement', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  async run({ deps, scope, log }, args) {
    const { key, body: { invoiceId, ...body } } = withIdempotencyKey(args);
    return { ...(await createPayment(deps, scope, invoiceId, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const getPaymentTool = defineTool({
  name: 'get_payment',
  description: 'Read one payment complement by id (pay_…): status, UUID, installment number, amount and balances in MXN pesos, '
    + 'cancellation and signed XML/PDF links valid 15 minutes.',
  input: ToolInput({ id: IdParamsSchema.properties.id }),
  output: PaymentSchema,
  annotations: { title: 'Get payment', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await retrievePayment(deps, scope, args.id) }),
  summarize: documentSummary,
});

export const listPaymentsTool = defineTool({
  name: 'list_payments',
  description: 'List payment complements, newest first, optionally of one invoice (invoiceId) or merchant, by status, UUID or '
    + 'creation time (ISO 8601 UTC). Pages of `limit` (default 10, at most 100); starting_after = the last id for the next page.',
  input: ToolInput(PaymentListQuerySchema.properties),
  output: ListSchema(PaymentSchema),
  annotations: { title: 'List payments', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await listPayments(deps, scope, args) }),
  summarize: (list: never) => listSummary('payments', list),
});

export const cancelPaymentTool = defineTool({
  name: 'cancel_payment',
  description: 'Ask the SAT to cancel a stamped payment complement (one timbre); its amount goes back to the invoice\'s outstanding '
    + 'balance once cancelled. Installments are cancelled newest first. motivo as for cancel_invoice (01 needs folioSustitucion).',
  input: ToolInput({ id: IdParamsSchema.properties.id, ...CancelRequestSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: PaymentSchema,
  annotations: { title: 'Cancel payment', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ deps, scope, log }, args) {
    const { key, body: { id, ...body } } = withIdempotencyKey(args);
    return { ...(await cancelDocument(deps, scope, 'payment', id, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const paymentTools = [createPaymentTool, getPaymentTool, listPaymentsTool, cancelPaymentTool];
