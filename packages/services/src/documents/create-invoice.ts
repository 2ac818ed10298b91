import { computeInvoice, globalReceiver, validateInvoiceRequest, type InvoiceInput, type Receiver } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { storeNewDocument } from './store-new-document';
import { checkAmountMagnitudes } from './amount-limits';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';

/** POST /v1/invoices body after schema validation (api-spec.md InvoiceCreate). */
export interface InvoiceCreate {
  merchantId: string;
  metodoPago?: 'PUE' | 'PPD';
  formaPago: string;
  usoCfdi: string;
  folio?: string;
  receiver: Receiver;
  items: InvoiceInput['items'];
  shipping?: InvoiceInput['shipping'];
  pricesIncludeTax?: boolean;
  cartDiscount?: number;
  informacionGlobal?: InvoiceInput['informacionGlobal'];
}

/**
 * Validates an invoice, assigns its folio, reserves one timbre and stores it as `stamping`, all in one
 * transaction: either the document exists with its reservation, or nothing happened (402/400 leave no trace).
 */
export async function createInvoiceDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  body: InvoiceCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  checkAmountMagnitudes(body.items, body.shipping);
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  await deps.catalogs.index();
  const issues = validateInvoiceRequest(body, deps.catalogs.lookup, { issuer: merchant, now });
  if (issues.length) throw new ValidationError(`The invoice is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);

  const global = body.informacionGlobal !== undefined;
  const receiver = global ? globalReceiver(merchant.zip) : body.receiver;
  const input: InvoiceInput = {
    issuer: { rfc: merchant.rfc, legalName: merchant.legalName, regimenFiscal: merchant.regimenFiscal, zip: merchant.zip },
    kind: global ? 'global' : 'nominal',
    receiver,
    metodoPago: body.metodoPago ?? 'PUE',
    formaPago: body.formaPago,
    usoCfdi: global ? 'S01' : body.usoCfdi,
    items: body.items,
    ...(body.shipping ? { shipping: body.shipping } : {}),
    ...(body.cartDiscount !== undefined ? { cartDiscount: body.cartDiscount } : {}),
    pricesIncludeTax: body.pricesIncludeTax ?? true,
    ...(body.informacionGlobal ? { informacionGlobal: body.informacionGlobal } : {}),
    serie: merchant.serie,
    ...(body.folio ? { folioText: body.folio } : {}),
  };
  const computed = computeInvoice(input);

  return em.transactional((tx) =>
    storeNewDocument(tx, deps.config, scope, { type: 'invoice', merchant, idempotencyKey }, (_id, folio) => ({
      kind: input.kind!, folioText: body.folio ?? null, metodoPago: input.metodoPago!, formaPago: input.formaPago, usoCfdi: input.usoCfdi!,
      receiver, subtotal: computed.subTotal, discount: computed.descuento ?? '0', total: computed.total,
      saldoPendiente: input.metodoPago === 'PPD' ? computed.total : null,
      input: { ...input, folio },
    })));
}
