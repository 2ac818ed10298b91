/**
 * Customs document numbers: the API accepts the 15 digits with or without spaces; the SAT
 * format is "YY  AA  PPPP  NNNNNNN" with TWO spaces between groups (21 characters).
 */
const DIGITS_15 = /^[0-9]{15}$/;

export function isPedimento(raw: string): boolean {
  return DIGITS_15.test(raw.replace(/ /g, ''));
}

export function formatPedimento(raw: string): string {
  const digits = raw.replace(/ /g, '');
  if (!DIGITS_15.test(digits)) throw new RangeError(`pedimento "${raw}" must have 15 digits`);
  return `${digits.slice(0, 2)}  ${digits.slice(2, 4)}  ${digits.slice(4, 8)}  ${digits.slice(8)}`;
}

/** Normalised, order-preserving, duplicates dropped (one InformacionAduanera per number). */
export function normalizePedimentos(raw: readonly string[] | undefined): string[] {
  return [...new Set((raw ?? []).map(formatPedimento))];
}
