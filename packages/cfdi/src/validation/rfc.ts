/** t_RFC of the XSD: 3 letters (moral) or 4 (física) incl. Ñ and &, YYMMDD, 3-character homoclave. */
export const RFC_PATTERN = /^[A-ZÑ&]{3,4}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]$/;

export const RFC_PUBLICO_GENERAL = 'XAXX010101000';
export const RFC_EXTRANJERO = 'XEXX010101000';
const GENERIC_RFCS = [RFC_PUBLICO_GENERAL, RFC_EXTRANJERO];

export type PersonType = 'fisica' | 'moral';

export function isRfc(value: string): boolean {
  return RFC_PATTERN.test(value);
}

/** 13 characters = persona física, 12 = persona moral. Generic RFCs count as física. */
export function personType(rfc: string): PersonType {
  return rfc.length === 13 ? 'fisica' : 'moral';
}

export const isGenericRfc = (rfc: string): boolean => GENERIC_RFCS.includes(rfc);

/** Corporate-regime suffixes the SAT does not accept in Nombre (CFDI40139/40145). */
const SUFFIX =
  /[ ,]+(S\.? ?A\.?( ?P\.? ?I\.?)?( DE C\.? ?V\.?)?|S\.? ?DE R\.? ?L\.?( DE C\.? ?V\.?)?|S\.? ?C\.?|A\.? ?C\.?|SAPI DE CV|S\.? ?A\.? ?S\.?|S\.? ?DE C\.? ?V\.?)$/;

export function hasCorporateSuffix(name: string): boolean {
  return SUFFIX.test(name.trim());
}
