import Decimal from 'decimal.js';

/**
 * Private Decimal constructor: 40 significant digits is far beyond any CFDI amount
 * (18 integer + 6 decimal digits), and ROUND_HALF_UP in decimal.js rounds half away
 * from zero, which is the SAT's "redondeo" (FAQ 37/39).
 */
export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;
export type DecimalLike = number | string | Dec;

export const ZERO = new D(0);
export const ONE = new D(1);

export function dec(value: DecimalLike): Dec {
  return new D(value);
}

/** Round half away from zero to `places` decimals. */
export function round(value: Dec, places: number): Dec {
  return value.toDecimalPlaces(places, D.ROUND_HALF_UP);
}

/** Fixed-decimals string (rounding half away from zero). */
export function fixed(value: Dec, places: number): string {
  return value.toFixed(places, D.ROUND_HALF_UP);
}

export function trunc(value: Dec, places: number): Dec {
  return value.toDecimalPlaces(places, D.ROUND_DOWN);
}

export function ceil(value: Dec, places: number): Dec {
  return value.toDecimalPlaces(places, D.ROUND_UP);
}

export function sum(values: readonly Dec[]): Dec {
  return values.reduce<Dec>((acc, v) => acc.plus(v), ZERO);
}

/** Number of decimals as written in a decimal string ("12.50" → 2, "3" → 0). */
export function writtenDecimals(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Plain string of a value with its significant decimals (no exponent), e.g. 1.5 → "1.5". */
export function plain(value: Dec): string {
  return value.toFixed();
}

/** Rates are written with 6 decimals as in c_TasaOCuota ("0.160000"). */
export function rateText(rate: DecimalLike): string {
  return fixed(dec(rate), 6);
}
