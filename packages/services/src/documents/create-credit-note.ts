import { computeInvoice, validateCreditNoteRequest, type CreditNoteInput, type Receiver } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import { loadDocument, type DocumentRow } from './document-row';
import { storeNewDocument } from './store-new-document';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';

/** POST /v1/credit_notes body after schema validation (api-spec.md CreditNoteCreate). */
export interface CreditNoteCreate {
  merchantId: string;
  relatedInvoiceId?: string;
  relatedUuid?: string;
  tipoRelacion?: '01' | '03';
  usoCfdi?: string;
  formaPago: string;
  folio?: string;
  receiver?: Receiver;
  items: CreditNoteInput['items'];
  pricesIncludeTax?: boolean;
}

/** The related income invoice when it lives in this service: stamped, an income invoice, same merchant. */
async function relatedInvoice(em: EntityManager, scope: Scope, body: CreditNoteCreate): Promise<DocumentRow | null> {
  if (!body.relatedInvoiceId) return null;
  let invoice: DocumentRow;
  try {
    invoice = await loadDocument(em, scope, body.relatedInvoiceId, 'invoice');
  } catch (error) {
    if (error instanceof NotFoundError) throw new NotFoundError('related invoice', body.relatedInvoiceId);
    throw error;
  }
  const path = '/relatedInvoiceId';
  if (invoice.kind === 'credit_note') throw ValidationError.field(path, 'must be an income invoice, not another credit note');
  if (invoice.status !== 'stamped' && invoice.status !== 'cancel_pending') {
    throw ValidationError.field(path, `the related invoice is ${invoice.status}; only a stamped invoice can be credited`);
  }
  if (invoice.merchant_id !== body.merchantId) {
    throw ValidationError.field('/merchantId', `must be ${invoice.merchant_id}, the merchant that stamped the related invoice`);
  }
  if (body.relatedUuid && body.relatedUuid.toUpperCase() !== invoice.uuid) {
    throw ValidationError.field('/relatedUuid', `does not match the related invoice's UUID ${invoice.uuid}`);
  }
  return invoice;
}

/** Like invoices: validate, folio, reserve and store `stamping` atomically. A credit note never changes the invoice. */
export async function createCreditNoteDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  body: CreditNoteCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  const invoice = await relatedInvoice(em, scope, body);
  await deps.catalogs.index();
  const receiver = body.receiver ?? invoice?.receiver;
  const issues = validateCreditNoteRequest({ ...body, receiver }, deps.catalogs.lookup, { issuer: merchant, now });
  if (issues.length) throw new ValidationError(`The credit note is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);

  const relatedUuid = (invoice?.uuid ?? body.relatedUuid!).toUpperCase();
  const input: CreditNoteInput = {
    issuer: { rfc: merchant.rfc, legalName: merchant.legalName, regimenFiscal: merchant.regimenFiscal, zip: merchant.zip },
    receiver: receiver!,
    relatedUuid,
    tipoRelacion: body.tipoRelacion ?? '01',
    formaPago: body.formaPago,
    usoCfdi: body.usoCfdi ?? 'G02',
    items: body.items,
    pricesIncludeTax: body.pricesIncludeTax ?? true,
    serie: merchant.serie,
    ...(body.folio ? { folioText: body.folio } : {}),
  };
  const computed = computeInvoice(input);

  return em.transactional((tx) =>
    storeNewDocument(tx, deps.config, scope, { type: 'invoice', merchant, idempotencyKey }, (_id, folio) => ({
      kind: 'credit_note', folioText: body.folio ?? null, metodoPago: 'PUE', formaPago: input.formaPago, usoCfdi: input.usoCfdi!,
      receiver: input.receiver, subtotal: computed.subTotal, discount: computed.descuento ?? '0', total: computed.total,
      tipoRelacion: input.tipoRelacion!, relatedUuid, relatedInvoiceId: invoice?.id ?? null,
      input: { ...input, folio },
    })));
}
