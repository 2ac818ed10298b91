import { isPedimento } from '../tax/pedimentos';
import { IEPS_RATES, isIepsRate, isIvaRate } from '../tax/rates';
import type { CatalogLookup } from './catalog-lookup';
import type { IssuerContext } from './receiver';
import { checkPositive, checkText, isGiven, isNumberLike, isString, type Issues } from './issues';

const MAX_ITEMS = 500;
const MAX_PEDIMENTOS = 100;

export interface ItemRequest {
  productCode?: unknown;
  unitCode?: unknown;
  description?: unknown;
  quantity?: unknown;
  unitPrice?: unknown;
  unit?: unknown;
  noIdentificacion?: unknown;
  sku?: unknown;
  taxable?: unknown;
  ivaRate?: unknown;
  iepsRate?: unknown;
  pedimentos?: unknown;
}

export interface ShippingRequest {
  amount?: unknown;
  ivaRate?: unknown;
  productCode?: unknown;
  unitCode?: unknown;
}

function checkProductCode(
  issues: Issues,
  path: string,
  value: unknown,
  catalogs: CatalogLookup,
  required: boolean,
): void {
  if (!isGiven(issues, path, value, required)) return;
  if (!isString(value) || !/^[0-9]{8}$/.test(value))
    return issues.add(path, 'must be an 8-digit c_ClaveProdServ key');
  if (!catalogs.hasProductCode(value))
    issues.add(
      path,
      `${value} is not in the SAT product/service catalog (c_ClaveProdServ); use GET /v1/catalogs/products to find one, or 01010101 when none fits (CFDI40162)`,
    );
}

function checkUnitCode(
  issues: Issues,
  path: string,
  value: unknown,
  catalogs: CatalogLookup,
  required: boolean,
): void {
  if (!isGiven(issues, path, value, required)) return;
  if (!isString(value) || value.length < 1 || value.length > 5)
    return issues.add(path, 'must be a c_ClaveUnidad key of 1 to 5 characters');
  if (!catalogs.hasUnitCode(value))
    issues.add(
      path,
      `${value} is not in the SAT unit catalog (c_ClaveUnidad), e.g. H87 pieza, E48 servicio, ACT actividad (CFDI40165)`,
    );
}

function checkIvaRate(issues: Issues, path: string, value: unknown): void {
  if (value === undefined) return;
  if (!isNumberLike(value) || !isIvaRate(value))
    issues.add(path, 'must be one of 0, 0.08, 0.16 (IVA rates of c_TasaOCuota)');
}

export function checkItem(issues: Issues, base: string, item: ItemRequest, catalogs: CatalogLookup): void {
  checkProductCode(issues, `${base}/productCode`, item.productCode, catalogs, true);
  checkUnitCode(issues, `${base}/unitCode`, item.unitCode, catalogs, true);
  checkText(issues, `${base}/description`, item.description, 1000, true);
  checkPositive(issues, `${base}/quantity`, item.quantity, 6);
  checkPositive(issues, `${base}/unitPrice`, item.unitPrice, 6);
  checkText(issues, `${base}/unit`, item.unit, 20, false);
  checkText(issues, `${base}/noIdentificacion`, item.noIdentificacion, 100, false);
  // The obsolete alias: empty means absent, and it is ignored (so not checked) when noIdentificacion is sent.
  if (item.noIdentificacion === undefined && item.sku !== '')
    checkText(issues, `${base}/sku`, item.sku, 100, false);
  if (item.taxable !== undefined && typeof item.taxable !== 'boolean')
    issues.add(`${base}/taxable`, 'must be true or false');
  checkIvaRate(issues, `${base}/ivaRate`, item.ivaRate);
  if (item.iepsRate !== undefined && (!isNumberLike(item.iepsRate) || !isIepsRate(item.iepsRate))) {
    issues.add(
      `${base}/iepsRate`,
      `must be an IEPS rate of c_TasaOCuota: ${IEPS_RATES.map(Number).join(', ')}`,
    );
  }
  if (item.pedimentos !== undefined) {
    if (
      !Array.isArray(item.pedimentos) ||
      item.pedimentos.length < 1 ||
      item.pedimentos.length > MAX_PEDIMENTOS
    ) {
      issues.add(`${base}/pedimentos`, `must be an array of 1 to ${MAX_PEDIMENTOS} customs document numbers`);
    } else {
      item.pedimentos.forEach((p: unknown, j: number) => {
        if (!isString(p) || !isPedimento(p)) {
          issues.add(
            `${base}/pedimentos/${j}`,
            'must be 15 digits (year 2, customs office 2, patent 4, sequence 7), with or without spaces, e.g. "23 47 3807 3000123"',
          );
        }
      });
    }
  }
}

export function checkItems(issues: Issues, items: unknown, catalogs: CatalogLookup): items is ItemRequest[] {
  if (!Array.isArray(items)) {
    issues.add('/items', 'is required: an array of 1 to 500 items');
    return false;
  }
  if (items.length < 1 || items.length > MAX_ITEMS)
    issues.add('/items', `must have 1 to ${MAX_ITEMS} items (got ${items.length})`);
  items.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) issues.add(`/items/${i}`, 'must be an object');
    else checkItem(issues, `/items/${i}`, item as ItemRequest, catalogs);
  });
  return true;
}

export function checkShipping(issues: Issues, shipping: unknown, catalogs: CatalogLookup): void {
  if (shipping === undefined) return;
  if (typeof shipping !== 'object' || shipping === null) return issues.add('/shipping', 'must be an object');
  const s = shipping as ShippingRequest;
  checkPositive(issues, '/shipping/amount', s.amount, 6);
  checkIvaRate(issues, '/shipping/ivaRate', s.ivaRate);
  checkProductCode(issues, '/shipping/productCode', s.productCode, catalogs, false);
  checkUnitCode(issues, '/shipping/unitCode', s.unitCode, catalogs, false);
}

const isBorderRate = (value: unknown): boolean =>
  isNumberLike(value) && isIvaRate(value) && Number(value) === 0.08;

/**
 * IVA 8 % is the border-region stimulus rate (cfdi40.md §2.2): only for issuers registered in it, which the SAT
 * postal-code catalog cannot tell this service, so the merchant declares it (`borderRegionStimulus`).
 */
export function checkBorderRate(
  issues: Issues,
  items: unknown,
  shipping: unknown,
  issuer: IssuerContext,
): void {
  if (issuer.borderRegionStimulus) return;
  const message =
    'IVA 8 % is the border-region stimulus rate; this merchant is not registered in it (set borderRegionStimulus on the merchant if it is)';
  if (Array.isArray(items)) {
    items.forEach((item: unknown, i) => {
      if (typeof item === 'object' && item !== null && isBorderRate((item as ItemRequest).ivaRate))
        issues.add(`/items/${i}/ivaRate`, message);
    });
  }
  if (
    typeof shipping === 'object' &&
    shipping !== null &&
    isBorderRate((shipping as ShippingRequest).ivaRate)
  )
    issues.add('/shipping/ivaRate', message);
}
