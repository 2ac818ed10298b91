import { MAX_AMOUNT } from '../decimal/limits';
import { inCatalog, type NominaCatalog } from '../nomina/catalogs';
import type { Amount } from '../types';
import { checkPositive, decimals, isNumberLike, type Issues } from './issues';

/** Checks shared by the payroll request's rules: amounts within the invoices' limits and catalog keys in force. */
export const LIMIT = MAX_AMOUNT.toLocaleString('en-US');
/** Every payroll amount: the invoices' magnitude limit (MAX_AMOUNT) and the 2 decimals of t_ImporteMXN. */
export const amountOk = (value: unknown): value is Amount =>
  isNumberLike(value) && Number(value) >= 0 && Number(value) <= MAX_AMOUNT && decimals(value as Amount) <= 2;
export const AMOUNT_RULE = `must be 0 or more, at most ${LIMIT}, with at most 2 decimals`;

/** A positive amount with at most `places` decimals, at most MAX_AMOUNT. */
export function positiveAmount(issues: Issues, path: string, value: unknown, places = 2): boolean {
  if (!checkPositive(issues, path, value, places)) return false;
  if (Number(value) <= MAX_AMOUNT) return true;
  issues.add(path, `must be at most ${LIMIT}`);
  return false;
}

const keysText = (catalog: NominaCatalog) =>
  catalog.keys.length <= 15 ? `: one of ${catalog.keys.join(', ')}` : '';

export function checkKey(
  issues: Issues,
  path: string,
  catalog: NominaCatalog,
  value: string | undefined,
  code: string,
  what: string,
  today: string,
): boolean {
  if (value === undefined) return true;
  if (inCatalog(catalog, value, today)) return true;
  issues.add(path, `${code}: ${value} is not a ${what} key in force in the SAT catalog${keysText(catalog)}`);
  return false;
}
