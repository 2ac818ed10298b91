import type { Element } from '@xmldom/xmldom';
import { incidence, type Incidencia } from './incidence-codes';

/**
 * Test-mode triggers, like test card numbers: an integrator writes a token into any
 * Concepto@Descripcion and gets a deterministic answer through the real API.
 *   SANDBOX_REJECT_<CODE>      → rejected with <CODE> (e.g. SANDBOX_REJECT_CFDI40145, SANDBOX_REJECT_402)
 *   SANDBOX_SAT_UNAVAILABLE    → 708 (SAT unreachable: retryable, nothing stamped)
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
