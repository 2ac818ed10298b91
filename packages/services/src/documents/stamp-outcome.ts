import type { EntityManager } from '@cfdi/db';
import type { DocumentRecord, DocumentRow } from './document-row';
import { toDocumentRecord } from './document-view';
import { conceptCount } from './files';
import { markNeedsReconciliation, recordStamped, recordStampFailure } from './stamping-outcomes';

/** What the PAC answered for a document's sealed XML, or why it was never sent, before it is recorded. */
export type PacStampResult =
  | { outcome: 'stamped'; uuid: string; xml: string }
  | { outcome: 'rejected'; code: string; message: string }
  | { outcome: 'ambiguous'; detail: string }
  /** A business reason it can never be sealed (no CSD, expired CSD): nothing was sent. */
  | { outcome: 'unsealable'; code: string; message: string };

/**
 * The outcome of a stamp: the one type from its recording, through the workflow, to the API's answer. `stamped`
 * carries the document as recorded (the answer is built from it, nothing is read again); `failed` ended without a
 * UUID and the timbre was refunded (`pac_unavailable` when nothing reached the PAC, else the SAT's or the PAC's
 * reason); `reconciling`: the PAC's answer was ambiguous and is being resolved.
 */
export type StampOutcome =
  | { outcome: 'stamped'; document: DocumentRecord }
  | { outcome: 'failed'; code: string; message: string }
  | { outcome: 'reconciling'; detail: string };

/** The outcome a document's row shows; null while it is stamping with nothing recorded yet. */
export function stampOutcomeOf(row: DocumentRow): StampOutcome | null {
  if (row.status === 'stamp_failed')
    return { outcome: 'failed', code: row.sat_code ?? 'stamp_failed', message: row.failure_detail ?? '' };
  if (row.status !== 'stamping') return { outcome: 'stamped', document: toDocumentRecord(row) };
  if (row.needs_reconciliation)
    return { outcome: 'reconciling', detail: row.failure_detail ?? 'ambiguous PAC outcome' };
  return null;
}

/**
 * Records a PAC result (ledger, status, event) and returns the outcome. `loaded` is the document as the stamp path
 * read it before the PAC call: when it has at most `filesInlineMaxItems` concepts its files are marked ready in the
 * same write, produced on first download; larger ones (and results recorded without it) are rendered by the
 * workflow on the files queue.
 */
export async function recordPacResult(
  em: EntityManager,
  documentId: string,
  result: PacStampResult,
  options: { filesInlineMaxItems: number; portalUrl: string; loaded?: DocumentRow },
): Promise<StampOutcome> {
  switch (result.outcome) {
    case 'stamped': {
      const { loaded } = options;
      const onDemand = loaded !== undefined && conceptCount(loaded) <= options.filesInlineMaxItems;
      const row = await recordStamped(
        em,
        documentId,
        { xml: result.xml, uuid: result.uuid },
        { portalUrl: options.portalUrl, ...(onDemand ? { filesOnDemand: loaded } : {}) },
      );
      return recorded(row);
    }
    case 'rejected':
    case 'unsealable':
      return recorded(await recordStampFailure(em, documentId, result));
    case 'ambiguous':
      await markNeedsReconciliation(em, documentId, result.detail);
      return { outcome: 'reconciling', detail: result.detail };
  }
}

/** The outcome of a row a recording just wrote (a write that changed nothing is retried by its caller). */
function recorded(row: DocumentRow): StampOutcome {
  const outcome = stampOutcomeOf(row);
  if (!outcome) throw new Error(`document ${row.id} is still stamping after its result was recorded`);
  return outcome;
}
