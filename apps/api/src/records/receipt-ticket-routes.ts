import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { renderTicketPdf, ticketText } from '@cfdi/cfdi';
import { receiptTicket } from '@cfdi/services';
import { Binary, IdParamsSchema, problemResponses } from '../schemas/common';
import { recordContext } from './routes';

/** A receipt's ticket to print: `…/ticket.txt` for thermal printers, `…/ticket.pdf` 80 mm wide with the QR code. */
export const receiptTicketRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = app.deps;
  app.get(
    '/receipts/:id/ticket.txt',
    {
      schema: {
        tags: ['receipts'],
        operationId: 'retrieveReceiptTicketText',
        summary: 'Print a receipt (text)',
        description:
          "The ticket as plain text, 42 columns (an 80 mm thermal printer's Font A): shop, items, total, payment form, the portal URL and the key in groups of four, and the last day to invoice it.",
        params: IdParamsSchema,
        response: {
          200: {
            description: 'The ticket, 42 columns of plain text',
            content: { 'text/plain': { schema: Type.String() } },
          },
          ...problemResponses(404),
        },
      },
    },
    async (request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(ticketText(await receiptTicket(recordContext(deps), request.scope, request.params.id))),
  );
  app.get(
    '/receipts/:id/ticket.pdf',
    {
      schema: {
        tags: ['receipts'],
        operationId: 'retrieveReceiptTicketPdf',
        summary: 'Print a receipt (PDF)',
        description: 'The ticket as an 80 mm wide PDF with a QR code to the receipt’s selfInvoiceUrl.',
        params: IdParamsSchema,
        response: {
          200: { description: 'The PDF', content: { 'application/pdf': { schema: Binary } } },
          ...problemResponses(404),
        },
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'application/pdf')
        .send(
          await renderTicketPdf(await receiptTicket(recordContext(deps), request.scope, request.params.id)),
        ),
  );
};
