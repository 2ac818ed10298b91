import type { ProblemCode, ProblemCodeWithStatus } from './problem-codes';

export { isProblemCode, PROBLEM_CODES, type ProblemCode, type ProblemCodeEntry } from './problem-codes';
export { PROBLEM_CODES_ES, type ProblemCodeTexts } from './problem-codes-es';

/** A field that failed validation, with its JSON-pointer path in the request (e.g. `/items/0/unitPrice`). */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Base of every error the API maps to `application/problem+json`. `code` is the stable machine code of the
 * spec's error table, registered in PROBLEM_CODES (its documentation page); `cause` keeps the underlying error for
 * logs (never shown for 5xx).
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly title: string,
    detail: string,
    readonly extra: {
      errors?: FieldError[];
      subcode?: string;
      satCode?: string;
      headers?: Record<string, string>;
    } = {},
    options?: { cause?: unknown },
  ) {
    super(detail, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  /**
   * True when the same request will pass once something else settles (an earlier installment still stamping or
   * being cancelled): the answer is not stored under the Idempotency-Key, so the same key works then.
   */
  transient = false;

  constructor(detail: string, errors: FieldError[] = [], extra: { subcode?: string } = {}) {
    super(400, 'validation_error', 'Validation failed', detail, { errors, ...extra });
  }
  static field(path: string, message: string): ValidationError {
    return new ValidationError(message, [{ path, message }]);
  }
  /** A 400 that says "not yet" rather than "never" (see `transient`). */
  static notYet(path: string, message: string): ValidationError {
    const error = ValidationError.field(path, message);
    error.transient = true;
    return error;
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'Missing or invalid API key. Send `Authorization: Bearer sk_test_…` or `sk_live_…`.') {
    super(401, 'unauthorized', 'Unauthorized', detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super(403, 'forbidden', 'Forbidden', detail);
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string, id?: string) {
    super(
      404,
      'not_found',
      'Not found',
      id ? `No ${resource} with id "${id}" in this account and mode.` : `No such ${resource}.`,
    );
  }
}

export class InsufficientCreditsError extends AppError {
  constructor(balance: number, price: number) {
    super(
      402,
      'insufficient_credits',
      'Insufficient credits',
      `The balance (${balance} centavos) does not cover one timbre (${price} centavos). Top up the balance and retry.`,
    );
  }
}

export class MonthlyLimitReachedError extends AppError {
  constructor(cap: number) {
    super(
      402,
      'monthly_limit_reached',
      'Monthly limit reached',
      `This account's monthly limit of ${cap} timbres has been reached.`,
    );
  }
}

export class ConflictError extends AppError {
  constructor(code: ProblemCodeWithStatus<409>, detail: string) {
    super(409, code, 'Conflict', detail);
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super(
      429,
      'rate_limited',
      'Too many requests',
      `Request rate limit exceeded; retry after ${retryAfterSeconds} seconds.`,
      { headers: { ...headers, 'retry-after': String(retryAfterSeconds) } },
    );
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(code: ProblemCodeWithStatus<503>, detail: string, options?: { cause?: unknown }) {
    super(503, code, 'Service unavailable', detail, {}, options);
  }
}

/** The failure at the bottom of a chain (a workflow's failure → the activity's → the error the activity threw). */
export function innermostCause(error: unknown): Error {
  let current = error as Error;
  while (current.cause instanceof Error) current = current.cause;
  return current;
}
