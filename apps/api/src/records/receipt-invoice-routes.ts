import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { invoiceReceipts } from '../operations/receipt-invoices';
import { runGlobalInvoiceNow } from '../operations/global-invoices';
import { idempotencyKeyOf, sendAnswer } from '../routes/send-answer';
import { IdParamsSchema, problemResponses } from '../schemas/common';
import { IdempotencyHeadersSchema, InvoiceSchema, StampingSchema } from '../schemas/documents';
import { GlobalInvoiceRunSchema, InvoiceFromReceiptsSchema, ReceiptInvoiceSchema } from '../schemas/receipts';
import type { McpTool } from '../mcp/tool';
import { stampingTool } from '../mcp/stamping-tool';

const ANSWERS = {
  201: InvoiceSchema,
  202: StampingSchema,
  ...problemResponses(400, 402, 403, 404, 409, 422, 503),
};
const RACE =
  'The receipts become invoiced in the transaction that stores the invoice: if one was invoiced, put in a global invoice or cancelled first, the answer is 409 receipt_not_open and nothing is stored or charged. Requires an Idempotency-Key.';

export const FROM_RECEIPTS = 'POST /v1/invoices/from_receipts';

/**
 * `POST /v1/receipts/{id}/invoice` and `POST /v1/invoices/from_receipts`: receipts into an invoice, for integrators;
 * `POST /v1/receipts/global`: a period's global invoice of the receipts nobody invoiced, now.
 */
export const receiptInvoiceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  app.post(
    '/receipts/:id/invoice',
    {
      schema: {
        tags: ['receipts'],
        operationId: 'createReceiptInvoice',
        summary: 'Invoice a receipt',
        description: `Stamp an invoice of an open receipt for a customer (receiver or customerId, usoCfdi): its items, payment form and prices are the receipt's. Answers as POST /v1/invoices (201 stamped, 202 still stamping). ${RACE}`,
        params: IdParamsSchema,
        headers: IdempotencyHeadersSchema,
        body: ReceiptInvoiceSchema,
        response: ANSWERS,
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await invoiceReceipts(
          deps,
          request.scope,
          `POST /v1/receipts/${request.params.id}/invoice`,
          { ...request.body, receiptIds: [request.params.id] },
          idempotencyKeyOf(request),
          request.log,
          true,
        ),
      ),
  );
  app.post(
    '/receipts/global',
    {
      schema: {
        tags: ['receipts'],
        operationId: 'createReceiptGlobalInvoice',
        summary: 'Stamp a period’s global invoice',
        description:
          'Stamp the global invoice (to PUBLICO EN GENERAL, with InformacionGlobal) of one period of a merchant: every receipt sold in the period (Mexico City days) and still open becomes one concept (NoIdentificacion the receipt id) and turns in_global, as the merchant’s automatic run does after each period. The period must have ended. The period is the idempotency key: asked again, or after the automatic run, it answers the same document and stamps nothing new. A receipt its customer invoices at the same moment ends in exactly one of the two CFDIs. 409 no_open_receipts when the period has nothing to invoice. Answers as POST /v1/invoices.',
        body: GlobalInvoiceRunSchema,
        response: ANSWERS,
      },
    },
    async (request, reply) =>
      sendAnswer(reply, await runGlobalInvoiceNow(deps, request.scope, request.body, request.log)),
  );
  app.post(
    '/invoices/from_receipts',
    {
      schema: {
        tags: ['receipts'],
        operationId: 'createInvoiceFromReceipts',
        summary: 'Invoice several receipts',
        description: `Stamp one invoice of several open receipts of one merchant for a customer: the items of all of them, the payment form that paid the most. Answers as POST /v1/invoices. ${RACE}`,
        headers: IdempotencyHeadersSchema,
        body: InvoiceFromReceiptsSchema,
        response: ANSWERS,
      },
    },
    async (request, reply) =>
      sendAnswer(
        reply,
        await invoiceReceipts(
          deps,
          request.scope,
          FROM_RECEIPTS,
          request.body,
          idempotencyKeyOf(request),
          request.log,
          false,
        ),
      ),
  );
};

/** `invoice_receipts`: the MCP face of POST /v1/invoices/from_receipts. */
export const receiptInvoiceTool = (): McpTool =>
  stampingTool({
    name: 'invoice_receipts',
    description:
      'Stamp one invoice of open receipts of one merchant for the customer who asked: the receiver or a customerId, and usoCfdi; items and payment come from the receipts. A receipt not open is refused.',
    title: 'Invoice receipts',
    input: InvoiceFromReceiptsSchema.properties,
    document: InvoiceSchema,
    run: ({ deps, scope, log }, body, key) =>
      invoiceReceipts(deps, scope, FROM_RECEIPTS, body as never, key, log, false),
  });

/** `create_global_invoice`: the MCP face of POST /v1/receipts/global. */
export const globalInvoiceTool = (): McpTool =>
  stampingTool({
    name: 'create_global_invoice',
    description:
      "Stamp the global invoice (PUBLICO EN GENERAL) of a merchant's ended period from its open receipts; asked again, the same document.",
    title: 'Create a global invoice',
    input: GlobalInvoiceRunSchema.properties,
    document: InvoiceSchema,
    // The period is the idempotency key: a retry answers the period's document.
    keyed: false,
    run: ({ deps, scope, log }, body) => runGlobalInvoiceNow(deps, scope, body as never, log),
  });
