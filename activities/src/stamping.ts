import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  loadDocumentById, markNeedsReconciliation, recordOperatorStamped, recordReconciliation, recordStampFailure, recordStamped,
  generateDocumentFiles, sealDocument, UnsealableDocumentError, type ReconciliationResolution,
} from '@cfdi/services';
import type { PacLookupOutcome, PacStampOutcome } from '@cfdi/workflows/client';
import type { ActivityDeps } from './deps';

export function stampingActivities(deps: ActivityDeps) {
  const em = () => deps.orm.em.fork();
  return {
    /** Builds and seals once; repeated calls return the stored sealed XML. */
    async sealDocument(documentId: string): Promise<void> {
      try {
        await sealDocument(em(), documentId, deps.loadCsd, deps.now?.() ?? new Date());
      } catch (error) {
        if (error instanceof UnsealableDocumentError) throw ApplicationFailure.nonRetryable(error.message, 'Unsealable', error.code);
        throw error;
      }
    },

    /**
     * Sends the persisted sealed XML. Safe to repeat: the same bytes make the PAC answer "already stamped" with the
     * original stamp. Throws only when nothing reached the PAC (retryable); ambiguous outcomes are returned.
     */
    async stampWithPac(documentId: string): Promise<PacStampOutcome> {
      const row = await loadDocumentById(em(), documentId);
      if (!row.sealed_xml) throw ApplicationFailure.nonRetryable('document has no sealed XML', 'Unsealable', 'not_sealed');
      const result = await deps.pac.forMode(row.livemode).stamp(row.sealed_xml, { correlationId: documentId });
      switch (result.outcome) {
        case 'stamped':
          return { outcome: 'stamped', uuid: result.uuid, xml: result.xml };
        case 'rejected':
          return { outcome: 'rejected', code: result.code, message: result.message };
        case 'ambiguous':
          return { outcome: 'ambiguous', detail: `${result.reason}: ${result.detail}` };
        case 'unavailable':
          throw ApplicationFailure.retryable(`PAC unavailable (${result.reason}): ${result.detail}`, 'PacUnavailable');
      }
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

    /** Returns the failure when the stamp could not be this document's (see recordStamped). */
    async recordStamped(documentId: string, stamped: { xml: string; uuid: string }): Promise<{ code: string; message: string } | null> {
      const row = await recordStamped(em(), documentId, stamped);
      return row.status === 'stamp_failed' ? { code: row.sat_code ?? 'stamp_failed', message: row.failure_detail ?? '' } : null;
    },
    async recordStampFailure(documentId: string, failure: { code: string; message: string }): Promise<void> {
      await recordStampFailure(em(), documentId, failure);
    },
    async markNeedsReconciliation(documentId: string, detail: string): Promise<void> {
      await markNeedsReconciliation(em(), documentId, detail);
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
