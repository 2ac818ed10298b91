import { RETENTION_TYPE } from '../stamping/read-retenciones';
import type { StampRecord } from '../storage/stamps';
import { mexicoLocal, wallClockMs } from '../time/mexico-time';

export const PUBLICO_EN_GENERAL = 'XAXX010101000';
const RESIDENTE_EXTRANJERO = 'XEXX010101000';
/**
 * A SAT test receiver (cfdi40.md §11) for which the sandbox never applies RMF 2.7.1.35-IX: every document to it that
 * needs acceptance otherwise (over 1,000 MXN, or a payment complement) waits for the receiver, even on its first day.
 * Payment complements carry no description of the integrator's, so a receiver is how they reach the acceptance flow.
 */
const ACCEPTANCE_RECEIVER = 'XIA190128J61';

/**
 * RMF 2.7.1.35 (pac.md §4.2): the cases a CFDI is cancelled without the receiver's acceptance.
 * Implemented: I total ≤ $1,000 (not for P), II nómina, III egreso, IV traslado, VI retenciones, VII público en
 * general / global, VIII foreign receiver, IX next business day (switchable, on by default; a document with a
 * receiver trigger opts out so integrators can exercise the acceptance flow). The other cases depend on taxpayer
 * registers the sandbox does not have.
 */
export function requiresAcceptance(stamp: StampRecord, now: Date, nextBusinessDayRule: boolean): boolean {
  if (['E', 'N', 'T', RETENTION_TYPE].includes(stamp.tipoDeComprobante)) return false;
  if (stamp.tipoDeComprobante !== 'P' && Number(stamp.total) <= 1000) return false;
  if (stamp.global || stamp.receptorRfc === PUBLICO_EN_GENERAL) return false;
  if (stamp.receptorRfc === RESIDENTE_EXTRANJERO) return false;
  const forcesAcceptance = stamp.receiverAnswer !== null || stamp.receptorRfc === ACCEPTANCE_RECEIVER;
  if (nextBusinessDayRule && !forcesAcceptance && withinNextBusinessDay(stamp.fechaTimbrado, now))
    return false;
  return true;
}

const DAY = 86_400_000;

/** True until the end of the business day (Mon–Fri; holidays not modelled) after issuance. */
function withinNextBusinessDay(fechaTimbrado: string, now: Date): boolean {
  let day = wallClockMs(`${fechaTimbrado.slice(0, 10)}T00:00:00`) + DAY;
  while ([0, 6].includes(new Date(day).getUTCDay())) day += DAY;
  return wallClockMs(mexicoLocal(now)) < day + DAY;
}
