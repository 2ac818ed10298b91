import type { Element } from '@xmldom/xmldom';
import { incidence, type Incidencia } from './incidence-codes';

/**
 * Test-mode triggers, like test card numbers: an integrator writes a token into any
 * Concepto@Descripcion and gets a deterministic answer through the real API.
 *   SANDBOX_REJECT_<CODE>      → rejected with <CODE> (e.g. SANDBOX_REJECT_CFDI40145, SANDBOX_REJECT_402)
 *   SANDBOX_SAT_UNAVAILABLE    → 708 (SAT unreachable: retryable, nothing stamped)
 *   SANDBOX_RECEIVER_ACCEPTS   → stamps; a cancellation needing acceptance is accepted at once
 *   SANDBOX_RECEIVER_REJECTS   → stamps; a cancellation needing acceptance is rejected at once
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

export function receiverTrigger(conceptos: readonly Element[]): 'accept' | 'reject' | null {
  for (const concepto of conceptos) {
    const descripcion = concepto.getAttribute('Descripcion') ?? '';
    if (descripcion.includes('SANDBOX_RECEIVER_ACCEPTS')) return 'accept';
    if (descripcion.includes('SANDBOX_RECEIVER_REJECTS')) return 'reject';
  }
  return null;
}
