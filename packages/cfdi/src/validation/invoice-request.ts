import { dec, sum, ZERO } from '../decimal/money';
import { computeInvoice } from '../tax/compute-invoice';
import type { ComputedInvoice } from '../tax/computed';
import type { InvoiceItem } from '../types';
import type { CatalogLookup } from './catalog-lookup';
import { checkInformacionGlobal } from './global-invoice';
import { checkText, decimals, isNumberLike, isString, Issues, type ValidationIssue } from './issues';
import { checkBorderRate, checkItems, checkShipping, type ItemRequest } from './items';
import { checkReceiver, type IssuerContext, type ReceiverRequest } from './receiver';
import { checkRelatedDocuments } from './related-documents';
import { RFC_PUBLICO_GENERAL } from './rfc';
import { checkCurrency, type CheckedCurrency, type PublishedRate } from './currency';
import { checkExport, checkExportAgainstConcepts } from '../comercio-exterior/validate';
import type { CartaPorteInput } from '../carta-porte/types';
import { checkCartaPorte } from '../carta-porte/validate';
import type { ComercioExteriorInput } from '../types';

/** POST /v1/invoices body (api-spec.md InvoiceCreate), as received: nothing is trusted. */
export interface InvoiceRequest {
  merchantId?: unknown;
  metodoPago?: unknown;
  formaPago?: unknown;
  usoCfdi?: unknown;
  folio?: unknown;
  receiver?: unknown;
  items?: unknown;
  shipping?: unknown;
  pricesIncludeTax?: unknown;
  cartDiscount?: unknown;
  informacionGlobal?: unknown;
  relatedDocuments?: unknown;
  moneda?: unknown;
  tipoCambio?: unknown;
  exportacion?: unknown;
  comercioExterior?: unknown;
  cartaPorte?: unknown;
}

export interface ValidationContext {
  /** The merchant issuing the document. */
  issuer: IssuerContext;
  /** Injected clock for the InformacionGlobal year rule; skipped when absent. */
  now?: Date;
  /** A new UUID for a Carta Porte's IdCCP when the request sends none; default crypto.randomUUID. */
  newUuid?: () => string;
  /** The rate published for the request's foreign currency, when the operator recorded one (CFDI40118). */
  publishedRate?: PublishedRate;
}

export function checkFormaPago(
  issues: Issues,
  formaPago: unknown,
  catalogs: CatalogLookup,
): formaPago is string {
  if (formaPago === undefined) {
    issues.add('/formaPago', 'is required');
    return false;
  }
  if (!isString(formaPago) || !catalogs.hasFormaPago(formaPago)) {
    issues.add(
      '/formaPago',
      `${String(formaPago)} is not a c_FormaPago key (01 efectivo, 03 transferencia, 04 tarjeta de crédito, 28 tarjeta de débito, 99 por definir...)`,
    );
    return false;
  }
  return true;
}

/**
 * A request checked: every problem found (each with the JSON pointer of its field) and, exactly when there is none,
 * the tax engine's result for its concepts, so the caller does not compute a large document twice.
 */
export interface CheckedRequest {
  issues: ValidationIssue[];
  computed?: ComputedInvoice;
  /** With `computed`: the currency and, on an export, the complement as the engine takes them. */
  currency?: CheckedCurrency;
  comercioExterior?: ComercioExteriorInput;
  /** With `computed`, on a freight invoice: the Carta Porte as the engine takes it (IdCCP generated). */
  cartaPorte?: CartaPorteInput;
}

/**
 * Runs the tax engine on a request that passed the field checks, reporting what only it can see; returns its result
 * when it computes.
 */
export function checkComputable(
  issues: Issues,
  items: ItemRequest[],
  shipping: unknown,
  cartDiscount: unknown,
  pricesIncludeTax: unknown,
  currencyDecimals = 2,
): ComputedInvoice | undefined {
  try {
    return computeInvoice({
      currencyDecimals,
      items: items as unknown as InvoiceItem[],
      ...(shipping ? { shipping: shipping as never } : {}),
      ...(cartDiscount !== undefined ? { cartDiscount: cartDiscount as number } : {}),
      ...(typeof pricesIncludeTax === 'boolean' ? { pricesIncludeTax } : {}),
    });
  } catch (err) {
    const message = (err as Error).message;
    const m = /^items\[(\d+)\](?:\.(quantity|unitPrice)\b)?/.exec(message);
    const path = m
      ? `/items/${m[1]}${m[2] ? `/${m[2]}` : ''}`
      : message.startsWith('shipping')
        ? '/shipping/amount'
        : cartDiscount !== undefined && !message.startsWith('items')
          ? '/cartDiscount'
          : '/items';
    issues.add(path, message);
    return undefined;
  }
}

function checkCartDiscount(
  issues: Issues,
  cartDiscount: unknown,
  items: ItemRequest[],
  currencyDecimals: number,
): void {
  if (cartDiscount === undefined) return;
  if (!isNumberLike(cartDiscount) || Number(cartDiscount) < 0)
    return issues.add('/cartDiscount', 'must be a number >= 0');
  if (decimals(cartDiscount) > currencyDecimals)
    return issues.add(
      '/cartDiscount',
      `must have at most ${currencyDecimals} decimals (the currency's, e.g. pesos and centavos)`,
    );
  const gross = sum(
    items.map((i) =>
      i && isNumberLike(i.quantity) && isNumberLike(i.unitPrice)
        ? dec(i.quantity).times(dec(i.unitPrice))
        : ZERO,
    ),
  );
  // Every concept must keep a positive tax base, so the discount must stay below the items' amount.
  if (dec(cartDiscount).gte(gross))
    issues.add(
      '/cartDiscount',
      `must be less than the items' amount (${gross.toFixed(2)}); a concept's Descuento cannot reach its Importe (CFDI40169)`,
    );
}

/**
 * Fiscal validation of an invoice request before anything is sent to a PAC. Returns every
 * problem found (empty array = acceptable), each with the JSON pointer of the field.
 */
export function validateInvoiceRequest(
  req: InvoiceRequest,
  catalogs: CatalogLookup,
  context: ValidationContext,
): ValidationIssue[] {
  return checkInvoiceRequest(req, catalogs, context).issues;
}

/** validateInvoiceRequest, with the computed concepts and totals of a valid request. */
export function checkInvoiceRequest(
  req: InvoiceRequest,
  catalogs: CatalogLookup,
  context: ValidationContext,
): CheckedRequest {
  const issues = new Issues();
  const metodo = req.metodoPago ?? 'PUE';
  if (metodo !== 'PUE' && metodo !== 'PPD')
    issues.add('/metodoPago', 'must be PUE (paid in full at issue) or PPD (paid later or in installments)');
  if (checkFormaPago(issues, req.formaPago, catalogs)) {
    if (metodo === 'PUE' && req.formaPago === '99')
      issues.add(
        '/formaPago',
        '99 (por definir) cannot be used with metodoPago PUE: send the form actually used, or use PPD if it is not paid yet',
      );
    if (metodo === 'PPD' && req.formaPago !== '99')
      issues.add(
        '/formaPago',
        'must be 99 (por definir) with metodoPago PPD; the real form goes in each payment complement (CFDI40105)',
      );
  }
  checkText(issues, '/folio', req.folio, 40, false);
  if (req.pricesIncludeTax !== undefined && typeof req.pricesIncludeTax !== 'boolean')
    issues.add('/pricesIncludeTax', 'must be true or false');

  const receiver = checkReceiver(issues, req.receiver, req.usoCfdi, context.issuer, catalogs);
  checkGlobal(issues, req, receiver, context, metodo);
  checkRelatedDocuments(issues, req.relatedDocuments);

  const currency = checkCurrency(issues, req.moneda, req.tipoCambio, catalogs, context.publishedRate);
  const comercioExterior = checkExport(issues, req, catalogs, currency);
  let cartaPorte: CartaPorteInput | undefined;
  if (req.cartaPorte !== undefined) {
    if (req.comercioExterior !== undefined)
      issues.add(
        '/cartaPorte',
        'must be absent on an export with comercioExterior: international transport is not supported yet',
      );
    else
      cartaPorte = checkCartaPorte(issues, req.cartaPorte, catalogs, {
        newUuid: context.newUuid ?? (() => globalThis.crypto.randomUUID()),
      });
  }

  const itemsOk = checkItems(issues, req.items, catalogs);
  checkShipping(issues, req.shipping, catalogs);
  checkBorderRate(issues, req.items, req.shipping, context.issuer);
  if (itemsOk)
    checkCartDiscount(issues, req.cartDiscount, req.items as ItemRequest[], currency?.decimales ?? 2);
  const computed =
    itemsOk && issues.list.length === 0
      ? checkComputable(
          issues,
          req.items as ItemRequest[],
          req.shipping,
          req.cartDiscount,
          req.pricesIncludeTax,
          currency?.decimales,
        )
      : undefined;
  if (computed && comercioExterior)
    checkExportAgainstConcepts(issues, comercioExterior, computed, currency?.tipoCambio ?? '1');
  return computed && issues.list.length === 0
    ? {
        issues: [],
        computed,
        currency,
        ...(comercioExterior ? { comercioExterior } : {}),
        ...(cartaPorte ? { cartaPorte } : {}),
      }
    : { issues: issues.list };
}

function checkGlobal(
  issues: Issues,
  req: InvoiceRequest,
  receiver: ReceiverRequest | undefined,
  context: ValidationContext,
  metodo: unknown,
): void {
  const isGlobal =
    receiver?.rfc === RFC_PUBLICO_GENERAL &&
    isString(receiver.name) &&
    receiver.name.trim() === 'PUBLICO EN GENERAL';
  if (!isGlobal) {
    if (req.informacionGlobal !== undefined) {
      issues.add(
        '/informacionGlobal',
        'is only allowed on global invoices (receiver XAXX010101000 PUBLICO EN GENERAL) (CFDI40130)',
      );
    }
    return;
  }
  if (req.informacionGlobal === undefined) {
    issues.add(
      '/informacionGlobal',
      'is required for a global invoice to PUBLICO EN GENERAL: {periodicidad, meses, anio} (CFDI40130)',
    );
  } else checkInformacionGlobal(issues, req.informacionGlobal, context.issuer.regimenFiscal, context.now);
  if (req.usoCfdi !== undefined && req.usoCfdi !== 'S01')
    issues.add('/usoCfdi', 'must be S01 (sin efectos fiscales) on a global invoice');
  if (metodo !== 'PUE') issues.add('/metodoPago', 'must be PUE on a global invoice');
}
