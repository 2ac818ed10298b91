import type { Incidence, Unavailable, UnavailableReason } from '../types';
import { COD_ESTATUS } from './protocol';
import type { StampAnswer } from './responses';

export type StampDecision =
  | { kind: 'stamped'; previouslyStamped: boolean }
  /** Finkok has the document but did not hand the CFDI back: ask `stamped` for it. */
  | { kind: 'follow_up'; reason: 'queued' | 'duplicate_without_data'; uuid?: string }
  | { kind: 'not_stamped'; code: string; message: string }
  | { kind: 'rejected'; code: string; message: string }
  | { kind: 'unavailable'; reason: UnavailableReason; code: string; message: string }
  | { kind: 'unrecognized'; detail: string };

/** Incidences that say nothing about the document: the PAC or the SAT could not do the work. */
const UNAVAILABLE_CODES: Record<string, UnavailableReason> = {
  '300': 'authentication',
  '703': 'account',
  '718': 'account',
  '708': 'sat_unreachable',
  // "No se pudo generar el SelloSAT": transient, nothing was stamped.
  '709': 'sat_unreachable',
};

/**
 * Decides from CodEstatus + UUID + xml, never from the mere presence of incidences: Finkok may
 * attach incidences to a successful stamp (pac.md §3.1).
 */
export function classifyStampAnswer(answer: StampAnswer): StampDecision {
  const duplicate = answer.incidences.find((i) => i.code === '307');
  if (answer.xml.trim() && answer.uuid) {
    return {
      kind: 'stamped',
      previouslyStamped: Boolean(duplicate) || answer.codEstatus === COD_ESTATUS.previouslyStamped,
    };
  }
  if (duplicate) return { kind: 'follow_up', reason: 'duplicate_without_data', ...uuidOf(answer, duplicate) };
  if (answer.codEstatus === COD_ESTATUS.received)
    return { kind: 'follow_up', reason: 'queued', ...uuidOf(answer) };
  const first = answer.incidences[0];
  if (!first)
    return { kind: 'unrecognized', detail: `no CFDI and no incidence (CodEstatus "${answer.codEstatus}")` };
  if (first.code === '603') return { kind: 'not_stamped', code: first.code, message: first.message };
  const reason = UNAVAILABLE_CODES[first.code];
  if (reason) return { kind: 'unavailable', reason, code: first.code, message: first.message };
  return { kind: 'rejected', code: first.code, message: first.message };
}

/** The PAC or the SAT could not do the work: the same `unavailable` from a stamp and from its lookup. */
export function unavailableStamp(decision: Extract<StampDecision, { kind: 'unavailable' }>): Unavailable {
  return {
    outcome: 'unavailable',
    reason: decision.reason,
    code: decision.code,
    detail: `${decision.code} ${decision.message}`,
  };
}

function uuidOf(answer: StampAnswer, incidence?: Incidence): { uuid?: string } {
  const uuid = answer.uuid || incidence?.uuid;
  return uuid ? { uuid } : {};
}
