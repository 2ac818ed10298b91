import { DOCUMENT_KINDS, type DocumentKind } from '@cfdi/services';
import { CreditNoteCreateSchema, InvoiceCreateSchema } from '../schemas/documents';
import { NominaCreateSchema } from '../schemas/nominas';
import { PaymentCreateSchema } from '../schemas/payments';
import { RetentionCreateSchema } from '../schemas/retentions';
import { TrasladoCreateSchema } from '../schemas/traslados';
import type { ApiDocumentKind, DocumentFace, RouteTexts } from './declaration';
import {
  invoiceResource,
  nominaResource,
  paymentResource,
  retentionResource,
  trasladoResource,
} from './resources';

export const invoiceKind: ApiDocumentKind = {
  kind: DOCUMENT_KINDS.invoice as DocumentKind<never>,
  resource: invoiceResource,
  path: '/invoices',
  body: InvoiceCreateSchema,
  create: {
    operationId: 'createInvoice',
    summary: 'Create and stamp an invoice',
    description:
      'Validate, reserve one timbre and stamp an invoice (PUE, PPD or global). Waits up to 20 s: 201 stamped, else 202 stamping.',
    tool: {
      name: 'create_invoice',
      title: 'Create invoice',
      description:
        'Issue and stamp a CFDI 4.0 income invoice. PUE: formaPago the real payment form (03 transfer…); PPD: ' +
        'formaPago 99, then create_payment per payment. Global: receiver XAXX010101000 with informacionGlobal. Another ' +
        'currency: moneda, tipoCambio. Export: exportacion 02, comercioExterior, a foreign receiver. Freight: cartaPorte.',
    },
  },
};

export const creditNoteKind: ApiDocumentKind = {
  kind: DOCUMENT_KINDS.credit_note as DocumentKind<never>,
  resource: invoiceResource,
  path: '/credit_notes',
  tag: 'credit notes',
  body: CreditNoteCreateSchema,
  create: {
    operationId: 'createCreditNote',
    summary: 'Create and stamp a credit note',
    description:
      'Stamp a credit note (egreso) related to an income invoice of this service (relatedInvoiceId) or stamped elsewhere (relatedUuid + receiver).',
    tool: {
      name: 'create_credit_note',
      title: 'Create credit note',
      description:
        'Stamp a credit note (CFDI egreso) correcting an income invoice, in its currency: relatedInvoiceId for an ' +
        'invoice of this service (receiver copied), or relatedUuid and receiver for one stamped elsewhere. formaPago: how ' +
        "the money goes back (15 if unpaid; never 99). At most the invoice's total.",
    },
  },
};

export const paymentKind: ApiDocumentKind = {
  kind: DOCUMENT_KINDS.payment as DocumentKind<never>,
  resource: paymentResource,
  path: '/invoices/:id/payments',
  body: PaymentCreateSchema,
  parentArgument: { name: 'invoiceId', description: 'The PPD invoice paid (inv_…)' },
  create: {
    operationId: 'createPayment',
    summary: 'Create and stamp a payment complement',
    description:
      'Record a payment of a stamped PPD invoice and stamp its payment complement (Pagos 2.0). Balances and NumParcialidad are computed by the server. Waits up to 20 s: 201 stamped, else 202 stamping.',
    tool: {
      name: 'create_payment',
      title: 'Create payment complement',
      description:
        'Record money received for a stamped PPD invoice and stamp its payment complement (Pagos 2.0), in the ' +
        "invoice's currency or another (monedaP, equivalenciaDR); the server computes installment and balances.",
    },
  },
};

export const nominaKind: ApiDocumentKind = {
  kind: DOCUMENT_KINDS.nomina as DocumentKind<never>,
  resource: nominaResource,
  path: '/nominas',
  body: NominaCreateSchema,
  create: {
    operationId: 'createNomina',
    summary: 'Stamp a payroll receipt',
    description:
      'Validate a payroll receipt (CFDI type N with Nómina 1.2) against the SAT rules (each failure a 400 naming the field and the NOM code), reserve one timbre and stamp it. The server computes every total and the Antigüedad. Waits up to 20 s: 201 stamped, else 202 stamping.',
    tool: {
      name: 'create_nomina',
      title: 'Create payroll receipt',
      description:
        'Stamp one payroll receipt (CFDI type N, Nómina 1.2) for one employee and period; the server computes every ' +
        'total, the Antigüedad and the Comprobante, and names the field and NOM code of each SAT rule that fails.',
    },
  },
};

export const retentionKind: ApiDocumentKind = {
  kind: DOCUMENT_KINDS.retention as DocumentKind<never>,
  resource: retentionResource,
  path: '/retentions',
  body: RetentionCreateSchema,
  create: {
    operationId: 'createRetention',
    summary: 'Stamp a withholding certificate',
    description:
      "Validate a withholding certificate (CFDI de retenciones e información de pagos, Retenciones 2.0) against the SAT rules (each failure a 400 naming the field), reserve one timbre and stamp it through the PAC's retentions service. The server computes MontoTotOperacion and MontoTotRet. Waits up to 20 s: 201 stamped, else 202 stamping.",
    tool: {
      name: 'create_retention',
      title: 'Create retention',
      description:
        'Stamp a withholding certificate (CFDI de retenciones, Retenciones 2.0): what a merchant paid a receiver in ' +
        'months of one year and the taxes it withheld; the server computes montoTotOperacion and montoTotRet.',
    },
  },
};

export const trasladoKind: ApiDocumentKind<RouteTexts> = {
  kind: DOCUMENT_KINDS.traslado as DocumentKind<never>,
  resource: trasladoResource,
  path: '/traslados',
  body: TrasladoCreateSchema,
  create: {
    operationId: 'createTraslado',
    summary: 'Stamp a traslado',
    description:
      "Validate a traslado CFDI (TipoDeComprobante T) of the merchant's own goods, with its Carta Porte 3.1 when the goods travel on a federal road, against the SAT rules (each failure a 400 naming the field), reserve one timbre and stamp it. No price, payment, currency or receiver: the merchant is the receiver (UsoCFDI S01), Moneda XXX, totals 0. IdCCP is generated once. Waits up to 20 s: 201 stamped, else 202 stamping.",
  },
};

/** Every resource with the kinds created as it, in the order routes and tools are listed. */
export const DOCUMENT_FACES: readonly DocumentFace[] = [
  { resource: invoiceResource, kinds: [invoiceKind, creditNoteKind], tools: true },
  { resource: paymentResource, kinds: [paymentKind], tools: true },
  { resource: nominaResource, kinds: [nominaKind], tools: true },
  { resource: retentionResource, kinds: [retentionKind], tools: true },
  { resource: trasladoResource, kinds: [trasladoKind], tools: false },
];
