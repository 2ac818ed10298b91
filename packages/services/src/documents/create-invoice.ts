import { checkInvoiceRequest, globalReceiver, type InvoiceInput, type Receiver } from '@cfdi/cfdi';
import { expandDocumentReferences, type DocumentItemRequest } from '../records/expand-references';
import type { EntityManager } from '@cfdi/db';
import { publishedRateFor } from '../exchange-rates/published-rates';
import { ValidationError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from './document-row';
import { selectPaymentUuids } from './repository';
import { storePrepared, type PreparedDocument } from './prepared-document';
import { checkAmountMagnitudes } from './amount-limits';
import { resolveStampingMerchant } from './merchant-gate';
import type { StampingDeps } from './stamping-deps';

/** POST /v1/invoices body after schema validation (api-spec.md InvoiceCreate). */
export interface InvoiceCreate {
  merchantId: string;
  metodoPago?: 'PUE' | 'PPD';
  formaPago: string;
  /** Default: the customer's usoCfdi. */
  usoCfdi?: string;
  folio?: string;
  /** Exactly one of `receiver` and `customerId` (a saved customer, whose data is copied). */
  receiver?: Receiver;
  customerId?: string;
  /** Items in full, or `{productId, quantity, …}` made from a saved product. */
  items: DocumentItemRequest[];
  shipping?: InvoiceInput['shipping'];
  pricesIncludeTax?: boolean;
  cartDiscount?: number;
  informacionGlobal?: InvoiceInput['informacionGlobal'];
  relatedDocuments?: InvoiceInput['relatedDocuments'];
  /** c_Moneda, default MXN; any other needs tipoCambio (MXN per unit). */
  moneda?: string;
  tipoCambio?: number | string;
  /** 02 (export) with comercioExterior, the Comercio Exterior 2.0 complement. */
  exportacion?: '01' | '02';
  comercioExterior?: Record<string, unknown>;
  /** A carrier's freight invoice: the Carta Porte 3.1 complement of the trip (motor transport inside Mexico). */
  cartaPorte?: Record<string, unknown>;
}

/**
 * Validates an invoice, assigns its folio, reserves one timbre and stores it as `stamping`, all in one
 * transaction: either the document exists with its reservation, or nothing happened (402/400 leave no trace).
 */
export async function createInvoiceDocument(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  request: InvoiceCreate,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  const prepared = await prepareInvoice(em, deps, scope, request);
  return em.transactional((tx) => storePrepared(tx, deps.config, scope, prepared, { idempotencyKey }));
}

/** Validates an invoice request and computes it with the tax engine: the document a create or a draft stores. */
export async function prepareInvoice(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  request: InvoiceCreate,
): Promise<PreparedDocument> {
  // A draft keeps its references: each preview, edit and stamp copies the customer's and products' data anew.
  const body = await expandDocumentReferences(em, scope, 'invoice', request);
  checkAmountMagnitudes(body.items, body.shipping);
  const now = deps.now?.() ?? new Date();
  const merchant = await resolveStampingMerchant(em, scope, body.merchantId, now);
  await deps.catalogs.index();
  // The check runs the tax engine; its result is the document's (a 500-item invoice is not computed twice).
  const { issues, computed, currency, comercioExterior, cartaPorte } = checkInvoiceRequest(
    body,
    deps.catalogs.lookup,
    { issuer: merchant, now, publishedRate: await publishedRateFor(em, body.moneda, now) },
  );
  if (!computed || !currency)
    throw new ValidationError(
      `The invoice is invalid: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
      issues,
    );

  await checkReplacedDocuments(em, scope, body.relatedDocuments);

  const global = body.informacionGlobal !== undefined;
  const receiver = global ? globalReceiver(merchant.zip) : body.receiver!;
  const input: InvoiceInput = {
    issuer: {
      rfc: merchant.rfc,
      legalName: merchant.legalName,
      regimenFiscal: merchant.regimenFiscal,
      zip: merchant.zip,
    },
    kind: global ? 'global' : 'nominal',
    receiver,
    metodoPago: body.metodoPago ?? 'PUE',
    formaPago: body.formaPago,
    usoCfdi: global ? 'S01' : body.usoCfdi!,
    items: body.items,
    ...(body.shipping ? { shipping: body.shipping } : {}),
    ...(body.cartDiscount !== undefined ? { cartDiscount: body.cartDiscount } : {}),
    pricesIncludeTax: body.pricesIncludeTax ?? true,
    ...(body.informacionGlobal ? { informacionGlobal: body.informacionGlobal } : {}),
    ...(body.relatedDocuments
      ? {
          relatedDocuments: body.relatedDocuments.map((r) => ({
            tipoRelacion: r.tipoRelacion,
            uuids: r.uuids.map((u) => u.toUpperCase()),
          })),
        }
      : {}),
    serie: merchant.serie,
    ...(body.folio ? { folioText: body.folio } : {}),
    // Foreign currency: the stored input carries what the XML needs, so sealing rebuilds the same document.
    ...(currency.moneda !== 'MXN'
      ? { moneda: currency.moneda, tipoCambio: currency.tipoCambio!, currencyDecimals: currency.decimales }
      : {}),
    ...(comercioExterior ? { exportacion: '02' as const, comercioExterior } : {}),
    // IdCCP is generated once, here: the stored input rebuilds the same XML on every stamp attempt.
    ...(cartaPorte ? { cartaPorte } : {}),
  };

  return {
    type: 'invoice',
    merchant,
    details: {
      kind: input.kind!,
      folioText: body.folio ?? null,
      currency: currency.moneda,
      metodoPago: input.metodoPago!,
      formaPago: input.formaPago,
      usoCfdi: input.usoCfdi!,
      receiver,
      subtotal: computed.subTotal,
      discount: computed.descuento ?? '0',
      total: computed.total,
      saldoPendiente: input.metodoPago === 'PPD' ? computed.total : null,
      input,
      customerId: body.customerId ?? null,
    },
  };
}

/**
 * A substitution (TipoRelacion 04) replaces an I or E CFDI with this income invoice (cfdi40.md §1.4: any other type is
 * replaced only by its own type), so a payment complement of this service cannot be named there.
 */
async function checkReplacedDocuments(
  em: EntityManager,
  scope: Scope,
  related: InvoiceCreate['relatedDocuments'],
): Promise<void> {
  const index = related?.findIndex((r) => r.tipoRelacion === '04') ?? -1;
  if (index < 0) return;
  const uuids = related![index]!.uuids.map((u) => u.toUpperCase());
  const payments = await selectPaymentUuids(em, scope, uuids);
  if (payments.length) {
    const j = uuids.indexOf(payments[0]!.uuid);
    throw ValidationError.field(
      `/relatedDocuments/${index}/uuids/${j}`,
      'is a payment complement: an income invoice may replace (TipoRelacion 04) only income or credit note CFDIs; a payment complement is replaced by another payment complement',
    );
  }
}
