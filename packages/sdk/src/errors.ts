import type { components } from './schema';

export type Problem = components['schemas']['Problem'];

/**
 * An answer of the API that is an error: the problem+json it sent (`code`, `status`, `detail`, `errors[]` with field
 * paths on a 400, `satCode` on a 422 `sat_rejected`). `code` is stable; its page is `type`.
 */
export class CfdiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly type: string | undefined;
  readonly errors: { path: string; message: string }[];
  readonly satCode: string | undefined;
  readonly subcode: string | undefined;
  /** The `x-request-id` of the answer, to find it in the server's logs. */
  readonly requestId: string | null;

  constructor(
    readonly problem: Partial<Problem> & { status: number },
    readonly headers: Headers,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.name = 'CfdiError';
    this.status = problem.status;
    this.code = problem.code ?? `http_${problem.status}`;
    this.type = problem.type;
    this.errors = problem.errors ?? [];
    this.satCode = problem.satCode;
    this.subcode = problem.subcode;
    this.requestId = headers.get('x-request-id');
  }
}

/** The API could not be reached (connection refused or reset, a timeout) after every retry. */
export class CfdiConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'CfdiConnectionError';
  }
}
