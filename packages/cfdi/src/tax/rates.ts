import { dec, rateText, type Dec, type DecimalLike } from '../decimal/money';

export const IVA = '002';
export const IEPS = '003';

/** IVA traslado Tasa values of c_TasaOCuota. */
export const IVA_RATES = ['0.000000', '0.080000', '0.160000'] as const;

/** IEPS traslado Tasa values of c_TasaOCuota (Fijo rows, IEPS, Tasa, traslado = true). */
export const IEPS_RATES = [
  '0.000000',
  '0.030000',
  '0.060000',
  '0.070000',
  '0.080000',
  '0.090000',
  '0.250000',
  '0.265000',
  '0.300000',
  '0.304000',
  '0.500000',
  '0.530000',
  '1.600000',
] as const;

function isDecimal(value: DecimalLike): boolean {
  try {
    return dec(value).isFinite();
  } catch {
    return false;
  }
}

export function isIvaRate(value: DecimalLike): boolean {
  return isDecimal(value) && (IVA_RATES as readonly string[]).includes(rateText(value));
}

export function isIepsRate(value: DecimalLike): boolean {
  return isDecimal(value) && (IEPS_RATES as readonly string[]).includes(rateText(value));
}

export function parseIvaRate(value: DecimalLike | undefined): Dec {
  const rate = value === undefined ? '0.16' : value;
  if (!isIvaRate(rate)) throw new RangeError(`ivaRate ${String(rate)} is not one of 0, 0.08, 0.16`);
  return dec(rate);
}

export function parseIepsRate(value: DecimalLike | undefined): Dec | null {
  if (value === undefined) return null;
  if (!isIepsRate(value)) {
    throw new RangeError(
      `iepsRate ${String(value)} is not an IEPS rate of c_TasaOCuota (${IEPS_RATES.join(', ')})`,
    );
  }
  return dec(value);
}
