import { createCreditNote, createInvoice, listInvoices, retrieveInvoice } from '../../operations/documents';
import { cancelDocument } from '../../operations/cancellations';
import { IdParamsSchema, ListSchema } from '../../schemas/common';
import { CreditNoteCreateSchema, InvoiceCreateSchema, InvoiceListQuerySchema, InvoiceSchema, StampingSchema } from '../../schemas/documents';
import { CancelRequestSchema } from '../../schemas/payments';
import { defineTool, IdempotencyKeyProperty, OneOfShapes, ToolInput, withIdempotencyKey } from '../tool';
import { documentSummary, listSummary } from './summaries';

const MONEY = 'Amounts are MXN pesos (numbers with up to 2 decimals, 6 for unit prices), dates and times are Mexico City local time.';
const stampedOrStamping = (status: number) => (status === 202 ? StampingSchema : InvoiceSchema);
const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const createInvoiceTool = defineTool({
  name: 'create_invoice',
  description: 'Issue and stamp a CFDI 4.0 income invoice with the SAT (costs one timbre from the balance). Use metodoPago PUE '
    + '(paid in full, formaPago the real payment form such as 03 transfer) or PPD (paid later, formaPago 99; record payments with '
    + 'create_payment). A receiver RFC XAXX010101000 makes a global invoice and needs informacionGlobal. Find productCode and unitCode '
    + `with search_product_codes and search_unit_codes, merchantId with list_merchants. ${MONEY} Waits up to 20 s: the result is the `
    + 'stamped invoice (uuid set), or status stamping (poll get_invoice). Retry with the returned idempotency_key, never without it.',
  input: ToolInput({ ...InvoiceCreateSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: OneOfShapes(InvoiceSchema, StampingSchema),
  shapeOf: stampedOrStamping,
  annotations: { title: 'Create invoice', ...write },
  async run({ deps, scope, log }, args) {
    const { key, body } = withIdempotencyKey(args);
    return { ...(await createInvoice(deps, scope, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const createCreditNoteTool = defineTool({
  name: 'create_credit_note',
  description: 'Issue and stamp a credit note (CFDI egreso, one timbre) that corrects an income invoice without cancelling it: '
    + 'returned goods, a discount or a refund. Give relatedInvoiceId for an invoice of this service (its receiver is copied), or '
    + `relatedUuid plus receiver for one stamped elsewhere. formaPago is how the money goes back (15 or 99 when none moves). ${MONEY} `
    + 'The credit notes of an invoice never add up to more than its total.',
  input: ToolInput({ ...CreditNoteCreateSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: OneOfShapes(InvoiceSchema, StampingSchema),
  shapeOf: stampedOrStamping,
  annotations: { title: 'Create credit note', ...write },
  async run({ deps, scope, log }, args) {
    const { key, body } = withIdempotencyKey(args);
    return { ...(await createCreditNote(deps, scope, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const getInvoiceTool = defineTool({
  name: 'get_invoice',
  description: 'Read one invoice or credit note by id (inv_…): status, UUID, totals in MXN pesos, outstanding balance of a PPD '
    + 'invoice, cancellation and signed XML/PDF links valid 15 minutes. Use it to follow a document that is still stamping.',
  input: ToolInput({ id: IdParamsSchema.properties.id }),
  output: InvoiceSchema,
  annotations: { title: 'Get invoice', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await retrieveInvoice(deps, scope, args.id) }),
  summarize: documentSummary,
});

export const listInvoicesTool = defineTool({
  name: 'list_invoices',
  description: 'List invoices and credit notes, newest first, optionally filtered by merchant, kind, status, UUID, metodoPago or '
    + 'creation time (ISO 8601 UTC). Pages hold up to `limit` (default 10, at most 100); pass starting_after = the last id to go on.',
  input: ToolInput(InvoiceListQuerySchema.properties),
  output: ListSchema(InvoiceSchema),
  annotations: { title: 'List invoices', ...read },
  run: async ({ deps, scope }, args) => ({ status: 200, body: await listInvoices(deps, scope, args) }),
  summarize: (list: never) => listSummary('invoices', list),
});

export const cancelInvoiceTool = defineTool({
  name: 'cancel_invoice',
  description: 'Ask the SAT to cancel a stamped invoice or credit note (one timbre). motivo 01 = issued with errors and replaced '
    + '(folioSustitucion = UUID of the stamped replacement), 02 = errors without replacement, 03 = the operation did not happen, '
    + '04 = nominal operation included in a global invoice. Cancel its payments first. The result is the invoice: status cancelled, '
    + 'or cancel_pending while the receiver has up to 72 hours to accept. Irreversible once the SAT accepts.',
  input: ToolInput({ id: IdParamsSchema.properties.id, ...CancelRequestSchema.properties, idempotency_key: IdempotencyKeyProperty }),
  output: InvoiceSchema,
  annotations: { title: 'Cancel invoice', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  async run({ deps, scope, log }, args) {
    const { key, body: { id, ...body } } = withIdempotencyKey(args);
    return { ...(await cancelDocument(deps, scope, 'invoice', id, body, key, log)), idempotencyKey: key };
  },
  summarize: documentSummary,
});

export const invoiceTools = [createInvoiceTool, createCreditNoteTool, getInvoiceTool, listInvoicesTool, cancelInvoiceTool];
