import { CatalogIndex } from '@cfdi/catalogs';
import type { FieldError } from '../errors';

/** 3 letters (moral) or 4 (física) incl. Ñ and &, YYMMDD, 3 alphanumerics (api-spec MerchantCreate). */
export const MERCHANT_RFC_PATTERN = '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$';

// The shipped c_RegimenFiscal: small, versioned with the code, and pure (no database needed to validate).
const regimenes = CatalogIndex.shipped().lookup;

export type PersonType = 'fisica' | 'moral';

/** 12 characters = persona moral, 13 = persona física. */
export const personTypeOfRfc = (rfc: string): PersonType => (rfc.length === 13 ? 'fisica' : 'moral');

/** The YYMMDD part must be a real calendar date (the century is unknown, so any YY divisible by 4 has a Feb 29). */
export function rfcProblem(rfc: string): FieldError | undefined {
  if (!new RegExp(MERCHANT_RFC_PATTERN, 'u').test(rfc)) {
    return {
      path: '/rfc',
      message: 'must be 3 or 4 letters (A-Z, Ñ, &), 6 digits (YYMMDD) and 3 letters or digits',
    };
  }
  const date = rfc.slice(rfc.length - 9, rfc.length - 3);
  const [yy, mm, dd] = [0, 2, 4].map((i) => Number(date.slice(i, i + 2))) as [number, number, number];
  const daysInMonth = [31, yy % 4 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mm - 1];
  if (!daysInMonth || dd < 1 || dd > daysInMonth) {
    return { path: '/rfc', message: `contains the date ${date}, which is not a valid YYMMDD date` };
  }
  return undefined;
}

/** The regimen must exist in c_RegimenFiscal and apply to the RFC's person type. */
export function regimenProblem(regimenFiscal: string, rfc: string): FieldError | undefined {
  const entry = regimenes.regimen(regimenFiscal);
  if (!entry)
    return {
      path: '/regimenFiscal',
      message: `"${regimenFiscal}" is not a key of the SAT fiscal-regime catalog (c_RegimenFiscal)`,
    };
  const type = personTypeOfRfc(rfc);
  if (!entry[type]) {
    const who =
      type === 'moral' ? 'a persona moral (12-character RFC)' : 'a persona física (13-character RFC)';
    return { path: '/regimenFiscal', message: `regime ${regimenFiscal} does not apply to ${who}` };
  }
  return undefined;
}

/** The API's limit on a series (1–10 characters), here too for the console, which sends no API body. */
export const MAX_SERIE_LENGTH = 10;

export function serieProblem(serie: string | undefined): FieldError | undefined {
  if (serie === undefined) return undefined;
  if (serie.trim().length === 0 || serie.length > MAX_SERIE_LENGTH)
    return { path: '/serie', message: `must be 1 to ${MAX_SERIE_LENGTH} characters` };
  // The CFDI's Serie is a string without "|" (it separates the fields of the cadena original).
  if (serie.includes('|')) return { path: '/serie', message: 'must not contain "|"' };
  return undefined;
}
