import type { CatalogLookup } from './catalog-lookup';
import { decimals, isNumberLike, isString, type Issues } from './issues';

/** The document's currency once checked: its key, c_Moneda decimals and exchange rate (absent for MXN). */
export interface CheckedCurrency {
  moneda: string;
  decimales: number;
  tipoCambio?: string;
}

/**
 * The exchange rate published for a currency (Banxico's FIX in the DOF for USD, its equivalences for the others), as
 * the operator recorded it: the centre of c_Moneda's variation band.
 */
export interface PublishedRate {
  /** MXN per unit, as decimal text. */
  rate: string;
  /** The day it was published (YYYY-MM-DD). */
  publishedOn: string;
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
 * decimals; and, when the day's published rate is known, within c_Moneda's variation band around it (CFDI40118).
 */
export function checkCurrency(
  issues: Issues,
  moneda: unknown,
  tipoCambio: unknown,
  catalogs: CatalogLookup,
  published?: PublishedRate,
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
  if (published && !withinBand(rate, published.rate, entry.variacion)) {
    const [low, high] = band(published.rate, entry.variacion);
    issues.add(
      '/tipoCambio',
      `${rate} is outside the ${entry.variacion} % band around the ${key} rate published on ${published.publishedOn} ` +
        `(${published.rate}): from ${low} to ${high} (CFDI40118; the SAT accepts a rate outside it only with a ` +
        `PAC's confirmation code, which this service does not request)`,
    );
    return undefined;
  }
  return { moneda: key as string, decimales: entry.decimales, tipoCambio: rate };
}

/** Micro-units (6 decimals) of a decimal text, exact: rates have at most 6 decimals. */
function micros(value: string): bigint {
  const [int, frac = ''] = value.split('.');
  return BigInt(int!) * 1_000_000n + BigInt(frac.padEnd(6, '0').slice(0, 6));
}

function microText(value: bigint): string {
  const int = value / 1_000_000n;
  const frac = (value % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
}

/** The band's ends, the published rate ± variacion %, to 6 decimals, widened: never refuse what the SAT accepts. */
function band(published: string, variacion: number): [string, string] {
  const centre = micros(published);
  const percent = BigInt(Math.round(variacion * 1_000_000));
  const spread = centre * percent; // micro-units × micro-percent
  const scale = 100n * 1_000_000n;
  const half = (spread + scale - 1n) / scale;
  const low = centre - half;
  const high = centre + half;
  return [microText(low), microText(high)];
}

function withinBand(rate: string, published: string, variacion: number): boolean {
  const [low, high] = band(published, variacion);
  const value = micros(rate);
  return value >= micros(low) && value <= micros(high);
}
