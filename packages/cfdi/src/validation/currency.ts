import type { CatalogLookup } from './catalog-lookup';
import { decimals, isNumberLike, isString, type Issues } from './issues';

/** The document's currency once checked: its key, c_Moneda decimals and exchange rate (absent for MXN). */
export interface CheckedCurrency {
  moneda: string;
  decimales: number;
  tipoCambio?: string;
}

/** t_TipoCambio: up to 18 integer digits and 6 decimals, more than 0. */
const TIPO_CAMBIO = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;

/** An exchange rate as its exact decimal text (a JSON number like 17.5 is "17.5"), or undefined when not one. */
export function tipoCambioText(value: unknown): string | undefined {
  if (!isNumberLike(value) || Number(value) <= 0 || decimals(value) > 6) return undefined;
  const textValue = typeof value === 'number' ? value.toFixed(decimals(value)) : value;
  return TIPO_CAMBIO.test(textValue) ? textValue : undefined;
}

/**
 * Moneda and TipoCambio (CFDI40113–40117): a c_Moneda key other than XXX (no currency is for P and T documents);
 * with MXN TipoCambio absent or 1; with any other currency TipoCambio required, the MXN value of one unit with up to 6
 * decimals. The variation band of c_Moneda (CFDI40118) needs the day's published rate: see docs/decisions.md.
 */
export function checkCurrency(
  issues: Issues,
  moneda: unknown,
  tipoCambio: unknown,
  catalogs: CatalogLookup,
): CheckedCurrency | undefined {
  const key = moneda ?? 'MXN';
  const entry = isString(key) && key !== 'XXX' ? catalogs.moneda(key) : undefined;
  if (!entry) {
    issues.add(
      '/moneda',
      key === 'XXX'
        ? 'XXX (no currency) is only for payment and traslado CFDIs; an invoice has a currency (CFDI40113)'
        : `${String(key)} is not a c_Moneda key (ISO 4217: MXN, USD, EUR, JPY...) (CFDI40113)`,
    );
    return undefined;
  }
  if (key === 'MXN') {
    if (tipoCambio !== undefined && Number(tipoCambio) !== 1) {
      issues.add('/tipoCambio', 'must be absent or 1 with moneda MXN (CFDI40114)');
      return undefined;
    }
    return { moneda: 'MXN', decimales: entry.decimales };
  }
  if (tipoCambio === undefined) {
    issues.add('/tipoCambio', `is required with moneda ${key}: the MXN value of one ${key} (CFDI40115)`);
    return undefined;
  }
  const rate = tipoCambioText(tipoCambio);
  if (!rate) {
    issues.add('/tipoCambio', 'must be a number greater than 0 with at most 6 decimals (CFDI40117)');
    return undefined;
  }
  return { moneda: key as string, decimales: entry.decimales, tipoCambio: rate };
}
