import {
  cancelReceipt,
  createReceipt,
  listReceipts,
  retrieveReceipt,
  type ReceiptView,
} from '@cfdi/services';
import { ReceiptCreateSchema, ReceiptListQuerySchema, ReceiptSchema } from '../schemas/receipts';
import type { RecordResource } from './declaration';

const MERCHANT_KEYS =
  'Receipts belong to a merchant: a key restricted to other merchants gets 403 on create and 404 on their receipts, as for an unknown id.';

/** Receipts: tickets a shop hands out without stamping, invoiced later by the customer, the API or the global run. */
export const receiptRecord: RecordResource<ReceiptView> = {
  path: '/receipts',
  tag: 'receipts',
  object: 'receipt',
  schema: ReceiptSchema,
  createBody: ReceiptCreateSchema,
  listQuery: ReceiptListQuerySchema,
  idempotentCreate: true,
  services: {
    create: createReceipt as never,
    retrieve: retrieveReceipt as never,
    list: listReceipts as never,
  },
  create: {
    operationId: 'createReceipt',
    summary: 'Create a receipt',
    description: `Record a sale as a receipt: its items and payment form are checked like an invoice's (400 on the field) and totalled, but nothing is stamped and no timbre is spent. The answer carries the key and selfInvoiceUrl to print on the ticket (GET …/{id}/ticket.pdf, …/{id}/ticket.txt). Requires an Idempotency-Key. ${MERCHANT_KEYS}`,
    tool: {
      name: 'create_receipt',
      title: 'Create receipt',
      description:
        'Record a sale to the general public as a receipt (a ticket), items as for create_invoice. Nothing is stamped: the customer may invoice it at selfInvoiceUrl until expiresAt; then it goes into the global invoice.',
    },
  },
  retrieve: {
    operationId: 'retrieveReceipt',
    summary: 'Retrieve a receipt',
    description: `A receipt with its status (open, invoiced, in_global, cancelled) and the invoiceId that covers it. ${MERCHANT_KEYS}`,
    tool: {
      name: 'get_receipt',
      title: 'Get receipt',
      description:
        'Read one receipt (rcpt_…): status, key, selfInvoiceUrl, items, totals, expiresAt and the invoiceId covering it.',
    },
  },
  list: {
    operationId: 'listReceipts',
    summary: 'List receipts',
    description: `Receipts newest first, filtered by merchantId, status, externalId or branch. ${MERCHANT_KEYS}`,
    tool: {
      name: 'list_receipts',
      title: 'List receipts',
      description:
        'Find receipts newest first, by merchant, status, the sale id in your system (externalId) or branch.',
    },
  },
  actions: [
    {
      verb: 'cancel',
      operationId: 'cancelReceipt',
      summary: 'Cancel a receipt',
      description:
        'Void an open receipt (a returned or voided sale): it leaves the portal and every global invoice. A receipt already invoiced, in a global invoice or cancelled is 409 receipt_not_open; cancel its invoice instead.',
      tool: {
        name: 'cancel_receipt',
        title: 'Cancel receipt',
        description:
          'Void an open receipt (rcpt_…): nobody invoices it, no global invoice includes it. An invoiced one is undone by cancelling its invoice.',
      },
      run: cancelReceipt as never,
      conflicts: [409],
    },
  ],
  line: (r) =>
    `${r.id}: ${r.status}, total ${r.total} MXN, key ${r.key}${r.branch ? `, branch ${r.branch}` : ''}${r.externalId ? `, external ${r.externalId}` : ''}, expires ${r.expiresAt}`,
};
