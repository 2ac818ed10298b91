import type { Element } from '@xmldom/xmldom';
import { incidence, type Incidencia } from './incidence-codes';

/**
 * Test-mode triggers, like test card numbers: an integrator writes a token into any
 * Concepto@Descripcion and gets a deterministic answer through the real API.
 *   SANDBOX_REJECT_<CODE>      → rejected with <CODE> (e.g. SANDBOX_REJECT_CFDI40145, SANDBOX_REJECT_402)
 *   SANDBOX_SAT_UNAVAILABLE    → 708 (SAT unreachable: retryable, nothing stamped)
 *   SANDBOX_RECEIVER_ACCEPTS   → stamps; a cancellation needing acceptance is accepted at once
 *   SANDBOX_RECEIVER_REJECTS   → stamps; a cancellation needing acceptance is rejected at once
 *   SANDBOX_REQUIRE_ACCEPTANCE → stamps; a cancellation needing acceptance waits for the receiver (control endpoint)
 * The three receiver tokens also switch off RMF 2.7.1.35-IX for the document: without them a document cancelled by
 * the next business day needs no acceptance, so the acceptance flow could not be exercised on a fresh document.
 * The receiver tokens exist because integrators only reach the sandbox through the platform's API,
 * never its control endpoints.
 */
const REJECT = /SANDBOX_REJECT_([A-Z0-9]{3,12})/;
const SAT_UNAVAILABLE = 'SANDBOX_SAT_UNAVAILABLE';

export function magicTrigger(conceptos: readonly Element[]): Incidencia | undefined {
  for (const concepto of conceptos) {
    const descripcion = concepto.getAttribute('Descripcion') ?? '';
    if (descripcion.includes(SAT_UNAVAILABLE))
      return incidence('708', 'sandbox trigger SANDBOX_SAT_UNAVAILABLE');
    const reject = REJECT.exec(descripcion);
    if (reject?.[1]) return incidence(reject[1], `sandbox trigger ${reject[0]}`);
  }
  return undefined;
}

/** How the receiver answers a cancellation of the document: at once (accept/reject) or when asked (wait). */
export type ReceiverTrigger = 'accept' | 'reject' | 'wait';

export function receiverTrigger(conceptos: readonly Element[]): ReceiverTrigger | null {
  for (const concepto of conceptos) {
    const descripcion = concepto.getAttribute('Descripcion') ?? '';
    if (descripcion.includes('SANDBOX_RECEIVER_ACCEPTS')) return 'accept';
    if (descripcion.includes('SANDBOX_RECEIVER_REJECTS')) return 'reject';
    if (descripcion.includes('SANDBOX_REQUIRE_ACCEPTANCE')) return 'wait';
  }
  return null;
}
