import type { Ambiguous, Unavailable } from '../types';
import type { TransportOutcome } from './soap-transport';

/**
 * Response header by which a PAC (our sandbox, or a gateway in front of a PAC) states that a 5xx
 * happened before the request reached the application, so nothing was processed.
 */
export const NOT_PROCESSED_HEADER = 'x-pac-not-processed';

export type WireFailure = Unavailable | Ambiguous;

type FailureCause = Extract<TransportOutcome, { kind: 'failed' }>['cause'];

const UNSENT_REASON: Record<FailureCause, Unavailable['reason']> = {
  timeout: 'timeout_before_send',
  aborted: 'aborted_before_send',
  reset: 'reset_before_send',
  connect: 'connection_failed',
  error: 'connection_failed',
};

/** Classifies a transport failure or a non-200 status; `undefined` means "read the SOAP body". */
export function classifyTransport(outcome: TransportOutcome): WireFailure | undefined {
  if (outcome.kind === 'failed') {
    if (!outcome.sent) {
      const reason = UNSENT_REASON[outcome.cause];
      return { outcome: 'unavailable', reason, detail: outcome.detail };
    }
    return {
      outcome: 'ambiguous',
      // An abort after sending is, for the PAC, the same as our deadline passing.
      reason:
        outcome.cause === 'timeout' || outcome.cause === 'aborted'
          ? 'timeout_after_send'
          : 'reset_after_send',
      detail: outcome.detail,
    };
  }
  const { status } = outcome;
  if (status === 200) return undefined;
  // SOAP 1.1 carries faults on HTTP 500; those are read from the body by the caller.
  if (status === 500 && outcome.headers[NOT_PROCESSED_HEADER] === undefined && /:?Fault\b/.test(outcome.body))
    return undefined;
  const notProcessed = outcome.headers[NOT_PROCESSED_HEADER] === 'true';
  // 502/503 come from proxies and overload shedding before the application runs; 4xx are refusals.
  if (notProcessed || status === 502 || status === 503 || (status >= 400 && status < 500)) {
    return {
      outcome: 'unavailable',
      reason: 'http_error',
      detail: `HTTP ${status}${notProcessed ? ' (not processed)' : ''}`,
    };
  }
  return { outcome: 'ambiguous', reason: 'http_error_after_send', detail: `HTTP ${status}` };
}
