import type { DocumentType } from '@cfdi/services';
import { InvoiceListQuerySchema, InvoiceSchema } from '../schemas/documents';
import { NominaListQuerySchema, NominaSchema } from '../schemas/nominas';
import { PaymentListQuerySchema, PaymentSchema } from '../schemas/payments';
import { RetentionListQuerySchema, RetentionSchema } from '../schemas/retentions';
import { TrasladoListQuerySchema, TrasladoSchema } from '../schemas/traslados';
import type { DocumentResource, DraftFaces, RouteTexts } from './declaration';

const invoiceDrafts: DraftFaces = {
  update: {
    operationId: 'updateDraft',
    summary: 'Edit a draft',
    description:
      "Merge patch over the draft's create body: a field given replaces the stored one whole (items included), null removes it. Validated and totalled again; 409 `not_a_draft` once stamped.",
    tool: {
      name: 'update_draft',
      title: 'Edit draft',
      description:
        'Change a draft invoice or credit note: each field given is replaced whole (items: the whole list), null ' +
        'removes an optional one; the draft comes back totalled again. Costs nothing.',
    },
  },
  stamp: {
    operationId: 'stampDraft',
    summary: 'Stamp a draft',
    description:
      'Stamp a draft as a create would (its folio, one timbre): 201 stamped, 202 stamping, 402 with the draft left as it was; the id stays.',
    tool: {
      name: 'stamp_draft',
      title: 'Stamp draft',
      description:
        'Stamp a draft invoice or credit note (inv_…): it gets its folio and UUID and costs one timbre, as create_invoice ' +
        'with the same data would; its id stays. A draft is stamped once.',
    },
  },
  del: {
    operationId: 'deleteDraft',
    summary: 'Delete a draft',
    description:
      'Delete a draft (204). A stamped document is never deleted: 409 `not_a_draft` (cancel it instead).',
  },
  copy: {
    operationId: 'createInvoiceCopy',
    summary: 'Copy into a new draft',
    description:
      "A new draft with the body of any invoice or credit note (draft, stamped, cancelled): no folio; an invoice's relatedDocuments are not copied, a credit note keeps its related invoice.",
  },
  preview: {
    operationId: 'retrieveDraftPreview',
    summary: 'Preview a draft as PDF',
    description:
      'The PDF of a draft, in the layout of the stamped one and marked SIN VALIDEZ FISCAL: no UUID, QR or seal; its totals are those the stamp will carry.',
  },
};

/** The cancel route's description, the same for every resource. */
const cancelDescription = (type: DocumentType) =>
  `Cancel a stamped ${type} with the SAT (one timbre). 202 once the PAC answered: status \`cancelled\`, or \`cancel_pending\` while the receiver decides (then \`cancelled\`, or back to \`stamped\` with cancellation.status \`rejected\`).`;

/** The e-mail routes' texts: `name` is the resource's singular in operation ids (`Invoice`), `noun` in prose. */
const emailTexts = (
  name: string,
  a: 'a' | 'an',
  noun: string,
): { email: RouteTexts; emails: RouteTexts } => ({
  email: {
    operationId: `send${name}Email`,
    summary: `E-mail ${a} ${noun}`,
    description:
      `Send a stamped or cancelled ${noun} by e-mail: its XML and PDF (and the SAT's acuse once cancelled), in Spanish ` +
      "or English, to `to` plus the merchant's emailCopyTo. 202 with the delivery, queued; it is retried while the SMTP " +
      'server fails temporarily and ends sent or failed (events email.sent, email.failed). 409 while the document is not stamped.',
  },
  emails: {
    operationId: `list${name}Emails`,
    summary: `List the e-mails of ${a} ${noun}`,
    description: `The e-mails of one ${noun}, newest first, each with its recipients, status, attempts and the SMTP server's answer.`,
  },
});

export const invoiceResource: DocumentResource = {
  type: 'invoice',
  path: '/invoices',
  tag: 'invoices',
  schema: InvoiceSchema,
  listQuery: InvoiceListQuerySchema,
  plural: 'invoices',
  retrieve: {
    operationId: 'retrieveInvoice',
    summary: 'Retrieve an invoice',
    description: 'An invoice or credit note, with signed file URLs once the files are ready.',
    tool: {
      name: 'get_invoice',
      title: 'Get invoice',
      description:
        "Read one invoice or credit note: status, UUID, totals, a PPD invoice's outstanding balance, cancellation, " +
        'XML/PDF links. Polls one still stamping.',
    },
  },
  list: {
    operationId: 'listInvoices',
    summary: 'List invoices',
    description: 'Invoices and credit notes, newest first.',
    tool: {
      name: 'list_invoices',
      title: 'List invoices',
      description:
        'List invoices and credit notes, newest first, by merchant, kind, status, UUID, metodoPago or creation time.',
    },
  },
  cancel: {
    operationId: 'cancelInvoice',
    summary: 'Cancel an invoice',
    description: cancelDescription('invoice'),
    tool: {
      name: 'cancel_invoice',
      title: 'Cancel invoice',
      description:
        'Ask the SAT to cancel a stamped invoice or credit note; cancel its payments first. Result: status cancelled, or ' +
        'cancel_pending while the receiver has up to 72 hours to accept. Irreversible once accepted.',
    },
  },
  drafts: invoiceDrafts,
  ...emailTexts('Invoice', 'an', 'invoice or credit note'),
};

export const paymentResource: DocumentResource = {
  type: 'payment',
  path: '/payments',
  tag: 'payments',
  schema: PaymentSchema,
  listQuery: PaymentListQuerySchema,
  plural: 'payments',
  retrieve: {
    operationId: 'retrievePayment',
    summary: 'Retrieve a payment',
    description: 'A payment complement, with signed file URLs once the files are ready and its cancellation.',
    tool: {
      name: 'get_payment',
      title: 'Get payment',
      description:
        'Read one payment complement: status, UUID, installment, amount and balances, cancellation, XML/PDF links.',
    },
  },
  list: {
    operationId: 'listPayments',
    summary: 'List payments',
    description: 'Payment complements, newest first.',
    tool: {
      name: 'list_payments',
      title: 'List payments',
      description:
        'List payment complements, newest first, of one invoice (invoiceId) or merchant, by status, UUID or creation time.',
    },
  },
  cancel: {
    operationId: 'cancelPayment',
    summary: 'Cancel a payment complement',
    description: cancelDescription('payment'),
    tool: {
      name: 'cancel_payment',
      title: 'Cancel payment',
      description:
        'Ask the SAT to cancel a stamped payment complement, newest installment first; once cancelled, what it paid ' +
        "returns to the invoice's balance.",
    },
  },
  ...emailTexts('Payment', 'a', 'payment complement'),
};

export const nominaResource: DocumentResource = {
  type: 'nomina',
  path: '/nominas',
  tag: 'nominas',
  schema: NominaSchema,
  listQuery: NominaListQuerySchema,
  plural: 'payroll receipts',
  retrieve: {
    operationId: 'retrieveNomina',
    summary: 'Retrieve a payroll receipt',
    description:
      'A payroll receipt with its employee, period and totals, and signed file URLs once the files are ready.',
    tool: {
      name: 'get_nomina',
      title: 'Get payroll receipt',
      description:
        'Read one payroll receipt: status, UUID, employee, period, totals and net pay, cancellation, XML/PDF links.',
    },
  },
  list: {
    operationId: 'listNominas',
    summary: 'List payroll receipts',
    description:
      'Payroll receipts, newest first; filter by employer, status, UUID, employee RFC and payment date.',
    tool: {
      name: 'list_nominas',
      title: 'List payroll receipts',
      description:
        'List payroll receipts, newest first, by employer (merchantId), status, UUID, employee RFC, payment date or ' +
        'creation time.',
    },
  },
  cancel: {
    operationId: 'cancelNomina',
    summary: 'Cancel a payroll receipt (no acceptance by the employee needed)',
    description: cancelDescription('nomina'),
    tool: {
      name: 'cancel_nomina',
      title: 'Cancel payroll receipt',
      description:
        "Ask the SAT to cancel a stamped payroll receipt, without the employee's acceptance (motivo 01: folioSustitucion " +
        'is the UUID of the receipt replacing it).',
    },
  },
  ...emailTexts('Nomina', 'a', 'payroll receipt'),
};

/** Withholding certificates: XML only (no PDF, hence no e-mail routes). */
export const retentionResource: DocumentResource = {
  type: 'retention',
  path: '/retentions',
  tag: 'retentions',
  schema: RetentionSchema,
  listQuery: RetentionListQuerySchema,
  plural: 'withholding certificates',
  retrieve: {
    operationId: 'retrieveRetention',
    summary: 'Retrieve a withholding certificate',
    description:
      'A withholding certificate (Retenciones 2.0) with its receiver, period, totals and taxes withheld, and the signed URL of its stamped XML once stamped (it has no PDF).',
    tool: {
      name: 'get_retention',
      title: 'Get retention',
      description:
        'Read one withholding certificate (ret_…): status, UUID, receiver, period, totals, taxes withheld, ' +
        'cancellation, XML link (it has no PDF).',
    },
  },
  list: {
    operationId: 'listRetentions',
    summary: 'List withholding certificates',
    description:
      'Withholding certificates, newest first; filter by merchant, status, UUID, receiver RFC and creation time.',
    tool: {
      name: 'list_retentions',
      title: 'List retentions',
      description:
        'List withholding certificates, newest first, by merchant, status, UUID, receiverRfc or creation time.',
    },
  },
  cancel: {
    operationId: 'cancelRetention',
    summary: 'Cancel a withholding certificate (no acceptance by the receiver needed)',
    description:
      "Cancel a stamped withholding certificate with the SAT through the PAC's retentions service (one timbre). 202 once the PAC answered: status `cancelled` (a certificate never waits for its receiver's acceptance).",
    tool: {
      name: 'cancel_retention',
      title: 'Cancel retention',
      description:
        'Ask the SAT to cancel a stamped withholding certificate (ret_…), without the receiver’s acceptance. ' +
        'Irreversible.',
    },
  },
};

/**
 * Traslado CFDIs (type T, the merchant's own goods moved, with their Carta Porte): REST only (no MCP tools, the MCP
 * listing's budget is full, see DocumentFace); they print, so they have the e-mail routes.
 */
export const trasladoResource: DocumentResource<RouteTexts> = {
  type: 'traslado',
  path: '/traslados',
  tag: 'traslados',
  schema: TrasladoSchema,
  listQuery: TrasladoListQuerySchema,
  plural: 'traslados',
  retrieve: {
    operationId: 'retrieveTraslado',
    summary: 'Retrieve a traslado',
    description:
      'A traslado CFDI (type T) with its goods and its Carta Porte in brief, and signed file URLs (XML, PDF, ZIP) once the files are ready.',
  },
  list: {
    operationId: 'listTraslados',
    summary: 'List traslados',
    description: 'Traslado CFDIs, newest first; filter by merchant, status, UUID and creation time.',
  },
  cancel: {
    operationId: 'cancelTraslado',
    summary: 'Cancel a traslado (no acceptance by the receiver needed)',
    description: cancelDescription('traslado'),
  },
  ...emailTexts('Traslado', 'a', 'traslado'),
};
