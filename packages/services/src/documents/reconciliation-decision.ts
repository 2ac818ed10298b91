import type { EntityManager } from '@cfdi/db';
import type { PacClients } from '../pac-clients';
import { loadDocumentById, type DocumentRow } from './document-row';
import { otherHolderOfUuid } from './stamping-outcomes';

/** An operator's decision on an ambiguous stamp, as `cfdi reconcile resolve` and the console take it. */
export interface ReconciliationDecision {
  stamped: boolean;
  /** The stamp's UUID (upper case), with `stamped`. */
  uuid?: string;
  /** With `stamped`: record the UUID although the PAC has no copy of the stamp (no XML, no files). */
  withoutXml?: boolean;
}

export type ReconciliationRefusal =
  | { reason: 'not_awaiting'; message: string }
  | { reason: 'uuid_of_another_document'; message: string }
  | { reason: 'pac_disagrees'; message: string };

export const isAwaitingReconciliation = (row: Pick<DocumentRow, 'needs_reconciliation' | 'status'>) => row.needs_reconciliation && row.status === 'stamping';

/**
 * Why the decision must not be signalled, or null when it may: the document no longer waits, the UUID is another
 * document's stamp (the workflow could never record it), or the PAC's copy contradicts "stamped with `uuid`" (without
 * its copy the document would be confirmed with no XML and no files, which only `withoutXml` accepts).
 */
export async function reconciliationRefusal(em: EntityManager, pac: PacClients, documentId: string, decision: ReconciliationDecision): Promise<ReconciliationRefusal | null> {
  const row = await loadDocumentById(em, documentId);
  if (!isAwaitingReconciliation(row)) {
    return { reason: 'not_awaiting', message: `${documentId} is not awaiting reconciliation (status ${row.status}${row.needs_reconciliation ? '' : ', no ambiguous failure'}); nothing done.` };
  }
  const owner = decision.uuid ? await otherHolderOfUuid(em, decision.uuid, documentId) : null;
  if (owner) return { reason: 'uuid_of_another_document', message: `${decision.uuid} is the stamp of ${owner}, not of ${documentId}; nothing done.` };
  if (!decision.stamped || decision.withoutXml) return null;
  const lookup = await pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: row.id });
  if (lookup.outcome === 'stamped') {
    return lookup.uuid.toUpperCase() === decision.uuid ? null : { reason: 'pac_disagrees', message: `the PAC holds this document's stamp as ${lookup.uuid}, not ${decision.uuid}; nothing done.` };
  }
  const detail = lookup.outcome === 'not_stamped' ? `it has no stamp for it (${lookup.code})` : `it did not answer (${lookup.outcome})`;
  return { reason: 'pac_disagrees', message: `the PAC cannot confirm ${decision.uuid}: ${detail}. Recording it would leave the document stamped without its XML and files; nothing done.` };
}

/** What the PAC said, with the stamp's UUID, its "not stamped" code or why there was no answer. */
export interface PacAnswer {
  outcome: 'stamped' | 'not_stamped' | 'no_answer';
  detail: string;
}

/** The PAC's answer to "did you stamp this?" for the queue: what an operator sees before deciding. */
export async function lookupAtPac(pac: PacClients, row: DocumentRow): Promise<PacAnswer> {
  try {
    const lookup = await pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: row.id });
    if (lookup.outcome === 'stamped') return { outcome: 'stamped', detail: lookup.uuid };
    return lookup.outcome === 'not_stamped' ? { outcome: 'not_stamped', detail: lookup.code } : { outcome: 'no_answer', detail: lookup.outcome };
  } catch (error) {
    return { outcome: 'no_answer', detail: (error as Error).message };
  }
}
