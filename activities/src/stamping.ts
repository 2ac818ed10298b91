import { ApplicationFailure, Context, log } from '@temporalio/activity';
import {
  conceptCount, loadDocumentById, loadDocumentWithMerchantRefs, markNeedsReconciliation, recordOperatorStamped, recordReconciliation,
  recordStampFailure, recordStamped, generateDocumentFiles, sealDocument, UnsealableDocumentError,
  type DocumentRow, type ReconciliationResolution,
} from '@cfdi/services';
import type { PacLookupOutcome, StampAttempt, StampResult } from '@cfdi/workflows/client';
import type { ActivityDeps } from './deps';

export function stampingActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em.fork();

  /**
   * Writes a stamp result (ledger, status, event). `loaded` is the document as the fast path loaded it before the PAC
   * call: small documents' files are then marked ready in the same write, to be produced on first download; larger
   * ones (and results recorded without it) are rendered on the files queue.
   */
  async function recordResult(documentId: string, result: StampResult, loaded?: DocumentRow): Promise<StampAttempt> {
    switch (result.outcome) {
      case 'stamped': {
        const onDemand = loaded !== undefined && conceptCount(loaded) <= deps.config.filesInlineMaxItems;
        const row = await recordStamped(em(), documentId, { xml: result.xml, uuid: result.uuid }, onDemand ? { filesOnDemand: loaded } : {});
        if (row.status === 'stamp_failed') return { outcome: 'failed', code: row.sat_code ?? 'stamp_failed', message: row.failure_detail ?? '' };
        return { outcome: 'stamped', uuid: row.uuid!, filesReady: row.files_status === 'ready' };
      }
      case 'rejected':
        await recordStampFailure(em(), documentId, { code: result.code, message: result.message });
        return result;
      case 'unsealable':
        await recordStampFailure(em(), documentId, { code: result.code, message: result.message });
        return { outcome: 'failed', code: result.code, message: result.message };
      case 'ambiguous':
        await markNeedsReconciliation(em(), documentId, result.detail);
        return result;
    }
  }

  /** What an earlier attempt already recorded (a retry, or a replay after a worker died before its workflow task ended). */
  function recorded(row: DocumentRow): StampAttempt | null {
    if (row.status === 'stamp_failed') return { outcome: 'failed', code: row.sat_code ?? 'stamp_failed', message: row.failure_detail ?? '' };
    if (row.status !== 'stamping') return { outcome: 'stamped', uuid: row.uuid!, filesReady: row.files_status === 'ready' };
    if (row.needs_reconciliation) return { outcome: 'ambiguous', detail: row.failure_detail ?? 'ambiguous PAC outcome' };
    return null;
  }

  async function recordOrHandBack(documentId: string, result: StampResult, loaded?: DocumentRow): Promise<StampAttempt> {
    try {
      return await recordResult(documentId, result, loaded);
    } catch (error) {
      log.warn('recording the stamp result failed; the workflow records it', { documentId, error: (error as Error).message });
      return { outcome: 'unrecorded', result };
    }
  }

  return {
    /**
     * The whole fast path of a stamp in one local activity: seal once (persisted before any PAC call), send the sealed
     * bytes, record the outcome. Safe to repeat: the same bytes make the PAC answer "already stamped" with the
     * original, and an ambiguous outcome already recorded is never re-sent. Throws only when nothing reached the PAC
     * (retryable). When the PAC answered but the database write failed, the result comes back `unrecorded` for the
     * workflow to record with retries, so a stamp the PAC made is never refunded.
     */
    async stampDocument(documentId: string): Promise<StampAttempt> {
      const row = await loadDocumentWithMerchantRefs(em(), documentId);
      const earlier = recorded(row);
      if (earlier) return earlier;
      let sealedXml: string;
      try {
        sealedXml = await sealDocument(em(), row, deps.loadCsd, deps.now?.() ?? new Date());
      } catch (error) {
        if (!(error instanceof UnsealableDocumentError)) throw error;
        return recordOrHandBack(documentId, { outcome: 'unsealable', code: error.code, message: error.message });
      }
      const answer = await deps.pac.forMode(row.livemode).stamp(sealedXml, { correlationId: documentId });
      switch (answer.outcome) {
        case 'unavailable':
          throw ApplicationFailure.retryable(`PAC unavailable (${answer.reason}): ${answer.detail}`, 'PacUnavailable');
        case 'stamped':
          return recordOrHandBack(documentId, { outcome: 'stamped', uuid: answer.uuid, xml: answer.xml }, row);
        case 'rejected':
          return recordOrHandBack(documentId, { outcome: 'rejected', code: answer.code, message: answer.message });
        case 'ambiguous':
          return recordOrHandBack(documentId, { outcome: 'ambiguous', detail: `${answer.reason}: ${answer.detail}` });
      }
    },

    /** Records a result the fast path could not (retried until the database takes it). */
    async recordStampResult(documentId: string, result: StampResult): Promise<StampAttempt> {
      return recordResult(documentId, result);
    },

    /** The PAC's already-stamped question for the persisted sealed XML (a read: always safe). */
    async lookupStamped(documentId: string): Promise<PacLookupOutcome> {
      const row = await loadDocumentById(em(), documentId);
      const result = await deps.pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: documentId });
      if (result.outcome === 'stamped') return { outcome: 'stamped', uuid: result.uuid, xml: result.xml };
      if (result.outcome === 'not_stamped') return { outcome: 'not_stamped', detail: `${result.code} ${result.message}` };
      return { outcome: 'unknown', detail: result.outcome === 'pending' ? result.detail : `${result.reason}: ${result.detail}` };
    },

    /** An operator said "stamped with UUID X": fetch the stamp from the PAC when it has it, else keep the UUID alone. */
    async recordOperatorStamped(documentId: string, uuid: string): Promise<string> {
      const row = await loadDocumentById(em(), documentId);
      const lookup = await deps.pac.forMode(row.livemode).lookupStamped(row.sealed_xml!, { correlationId: documentId });
      const stamped = lookup.outcome === 'stamped' ? lookup : null;
      return (await recordOperatorStamped(em(), documentId, uuid, stamped)).uuid!;
    },

    async recordStampFailure(documentId: string, failure: { code: string; message: string }): Promise<void> {
      await recordStampFailure(em(), documentId, failure);
    },
    async recordReconciliation(documentId: string, resolution: ReconciliationResolution): Promise<void> {
      await recordReconciliation(em(), documentId, resolution);
    },

    /** XML, PDF and ZIP into storage; `files.status` processing → ready (or failed after the last retry). */
    async generateDocumentFiles(documentId: string): Promise<void> {
      const context = Context.current();
      const lastAttempt = context.info.attempt >= 5;
      await generateDocumentFiles(em(), deps.files, documentId, { markFailedOnError: lastAttempt });
    },
  };
}
