import { hasUnsupportedCharacter, UNSUPPORTED_CHARACTER_MESSAGE } from './characters';

/** One problem of a request: JSON pointer into the request body plus a message for the integrator. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** The problems found, one entry per field path (a second problem at the same path joins the first's message). */
export class Issues {
  readonly list: ValidationIssue[] = [];
  private readonly byPath = new Map<string, ValidationIssue>();

  add(path: string, message: string): void {
    const earlier = this.byPath.get(path);
    if (earlier) {
      earlier.message = `${earlier.message}; ${message}`;
      return;
    }
    const issue = { path, message };
    this.byPath.set(path, issue);
    this.list.push(issue);
  }
}

export const isString = (v: unknown): v is string => typeof v === 'string';
/** A JSON object of a request (not null, not an array). */
export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isNumberLike = (v: unknown): v is number | string =>
  (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v));

/** Whether a field was sent, so its value can be checked; an absent one is an issue only when it is required. */
export function isGiven(issues: Issues, path: string, value: unknown, required: boolean): boolean {
  if (value !== undefined) return true;
  if (required) issues.add(path, 'is required');
  return false;
}

/** Free text: length bounds, no pipe (cadena separator), no control characters. */
export function checkText(
  issues: Issues,
  path: string,
  value: unknown,
  max: number,
  required: boolean,
): void {
  if (value === undefined || value === null) {
    if (required) issues.add(path, 'is required');
    return;
  }
  if (!isString(value)) return issues.add(path, 'must be a string');
  if (value.trim().length === 0) return issues.add(path, 'must not be empty');
  if (value.length > max) issues.add(path, `must be at most ${max} characters (got ${value.length})`);
  if (value.includes('|'))
    issues.add(
      path,
      'must not contain the pipe character "|" (it separates the fields of the cadena original)',
    );
  if (hasUnsupportedCharacter(value)) issues.add(path, UNSUPPORTED_CHARACTER_MESSAGE);
}

export function decimals(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (/e-/i.test(text))
    return Number(text.split(/e-/i)[1]) + (text.split('.')[1]?.split(/e/i)[0]?.length ?? 0);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** A positive amount with at most `maxDecimals` decimals. */
export function checkPositive(
  issues: Issues,
  path: string,
  value: unknown,
  maxDecimals: number,
  required = true,
): boolean {
  if (value === undefined || value === null) {
    if (required) issues.add(path, 'is required');
    return false;
  }
  if (!isNumberLike(value)) {
    issues.add(path, 'must be a number');
    return false;
  }
  if (Number(value) <= 0) {
    issues.add(path, 'must be greater than 0');
    return false;
  }
  if (decimals(value) > maxDecimals) {
    issues.add(path, `must have at most ${maxDecimals} decimals`);
    return false;
  }
  return true;
}
