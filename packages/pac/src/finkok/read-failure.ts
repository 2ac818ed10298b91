import type { SoapFault } from '../soap/envelope';
import type { WireFailure } from '../transport/classify-transport';
import type { Ambiguous, Unavailable, UnavailableReason } from '../types';

/** Reads have no side effect, so "maybe processed" does not matter: any failure is retryable. */
export function asReadFailure(failure: WireFailure): Unavailable {
  if (failure.outcome === 'unavailable') return failure;
  const reason: Record<Ambiguous['reason'], UnavailableReason> = {
    timeout_after_send: 'timeout',
    reset_after_send: 'connection_failed',
    http_error_after_send: 'http_error',
    queued: 'invalid_response',
    duplicate_without_data: 'invalid_response',
    soap_fault: 'http_error',
    unrecognized_response: 'invalid_response',
  };
  return { outcome: 'unavailable', reason: reason[failure.reason], detail: failure.detail };
}

/**
 * A `Server` fault during a write may come after the work was done (ambiguous); a `Client` fault
 * means the envelope itself was refused before any processing.
 */
export function writeFault(fault: SoapFault): Unavailable | Ambiguous {
  const detail = faultDetail(fault);
  if (!/client/i.test(fault.faultcode)) return { outcome: 'ambiguous', reason: 'soap_fault', detail };
  return { outcome: 'unavailable', reason: 'http_error', detail };
}

/** Any fault on a read: repeating it is safe. */
export function readFault(fault: SoapFault): Unavailable {
  return { outcome: 'unavailable', reason: 'http_error', detail: faultDetail(fault) };
}

const faultDetail = (fault: SoapFault) => `SOAP fault ${fault.faultcode}: ${fault.faultstring}`;
