import type { CatalogLookup } from '../validation/catalog-lookup';
import {
  checkPositive,
  checkText,
  decimals,
  Issues,
  isString,
  type ValidationIssue,
  type Obj,
  isObject,
} from '../validation/issues';
import type { Issuer, TrasladoInput } from '../types';
import type { CartaPorteInput, TrasladoItem } from './types';
import { checkCartaPorte, type CartaPorteOptions } from './validate';

/** A traslado (T) as the API receives it: the goods moved and, on a public road, their Carta Porte. */
export interface TrasladoRequest {
  serie?: unknown;
  folio?: unknown;
  items?: unknown;
  cartaPorte?: unknown;
}

export interface CheckedTraslado {
  issues: ValidationIssue[];
  /** The engine input of a valid request (IdCCP generated when absent). */
  input?: TrasladoInput;
}

const FORBIDDEN = ['formaPago', 'metodoPago', 'moneda', 'tipoCambio', 'receiver', 'cartDiscount', 'shipping'];

/**
 * The rules of a traslado CFDI a server checks (cfdi40.md: no FormaPago or MetodoPago, CFDI40103/40125; XXX, SubTotal
 * and Total 0, CFDI40109; no discounts or taxes, so no prices) and of its Carta Porte (checkCartaPorte).
 */
export function checkTrasladoRequest(
  req: TrasladoRequest & Record<string, unknown>,
  catalogs: CatalogLookup,
  context: { issuer: Issuer } & CartaPorteOptions,
): CheckedTraslado {
  const issues = new Issues();
  for (const k of FORBIDDEN)
    if (req[k] !== undefined)
      issues.add(
        `/${k}`,
        k === 'receiver'
          ? 'must be absent: a traslado of your own goods is issued to yourself (the receiver is the issuer)'
          : 'must be absent on a traslado: it has no price, payment or taxes (SubTotal and Total 0, Moneda XXX)',
      );
  checkText(issues, '/serie', req.serie, 25, false);
  checkText(issues, '/folio', req.folio, 40, false);
  const items = checkItems(issues, req.items, catalogs);
  const cartaPorte: CartaPorteInput | undefined =
    req.cartaPorte === undefined ? undefined : checkCartaPorte(issues, req.cartaPorte, catalogs, context);
  if (issues.list.length > 0 || !items) return { issues: issues.list };
  return {
    issues: [],
    input: {
      issuer: context.issuer,
      ...(isString(req.serie) ? { serie: req.serie } : {}),
      ...(isString(req.folio) ? { folioText: req.folio } : {}),
      items,
      ...(cartaPorte ? { cartaPorte } : {}),
    },
  };
}

function checkItems(issues: Issues, value: unknown, catalogs: CatalogLookup): TrasladoItem[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    issues.add(
      '/items',
      'is required: at least one good moved {productCode, unitCode, description, quantity}',
    );
    return undefined;
  }
  const before = issues.list.length;
  value.forEach((item, i) => {
    const at = `/items/${i}`;
    if (!isObject(item)) return issues.add(at, 'must be an object');
    if (!isString(item.productCode) || !catalogs.hasProductCode(item.productCode))
      issues.add(`${at}/productCode`, `${String(item.productCode)} is not a c_ClaveProdServ key`);
    if (!isString(item.unitCode) || !catalogs.hasUnitCode(item.unitCode))
      issues.add(`${at}/unitCode`, `${String(item.unitCode)} is not a c_ClaveUnidad key`);
    checkText(issues, `${at}/description`, item.description, 1000, true);
    checkText(issues, `${at}/unit`, item.unit, 20, false);
    checkText(issues, `${at}/noIdentificacion`, item.noIdentificacion, 100, false);
    checkPositive(issues, `${at}/quantity`, item.quantity, 6);
    if (item.unitPrice !== undefined && Number(item.unitPrice) !== 0)
      issues.add(`${at}/unitPrice`, 'must be absent or 0: a traslado moves goods without a price');
  });
  if (issues.list.length !== before) return undefined;
  return (value as Obj[]).map((item) => ({
    productCode: String(item.productCode),
    unitCode: String(item.unitCode),
    description: String(item.description),
    quantity:
      typeof item.quantity === 'number'
        ? item.quantity.toFixed(decimals(item.quantity))
        : String(item.quantity),
    ...(item.unit !== undefined ? { unit: String(item.unit) } : {}),
    ...(item.noIdentificacion !== undefined ? { noIdentificacion: String(item.noIdentificacion) } : {}),
  }));
}
