import { ApplicationFailure, Context, log } from '@temporalio/activity';
import {
  attemptStamp,
  documentPac,
  loadDocumentById,
  loadDocumentWithMerchantRefs,
  recordOperatorStamped,
  recordReconciliation,
  recordStampFailure,
  recordStampResult,
  generateDocumentFiles,
  stampOutcomeOf,
  type PacStampResult,
  type StampAttempt,
  type StampAttemptDeps,
  type StampOutcome,
} from '@cfdi/services';
import type { Activities } from '@cfdi/temporal-contract';
import type { ActivityDeps } from './deps';

type StampingActivities = Pick<
  Activities,
  | 'stampDocument'
  | 'recordStampResult'
  | 'loadStampOutcome'
  | 'lookupStamped'
  | 'recordOperatorStamped'
  | 'recordStampFailure'
  | 'recordReconciliation'
  | 'generateDocumentFiles'
>;

export function stampingActivities(deps: ActivityDeps): StampingActivities {
  const em = () => deps.orm.em.fork();
  const attemptDeps: StampAttemptDeps = {
    em,
    pac: deps.pac,
    loadCsd: deps.loadCsd,
    now: () => deps.now?.() ?? new Date(),
    filesInlineMaxItems: deps.config.filesInlineMaxItems,
    portalUrl: deps.config.api.portalUrl,
    mailer: deps.emails.mailer !== null,
    ...(deps.observer ? { stampRecorded: (outcome: string) => deps.observer!.stampRecorded(outcome) } : {}),
    warn: (message, fields) => log.warn(message, fields),
  };

  return {
    /**
     * The whole fast path of a stamp in one local activity (`attemptStamp`: seal once, send, record). Throws only
     * when nothing reached the PAC (retryable); everything else, ambiguous answers included, comes back as a value.
     */
    async stampDocument(documentId: string): Promise<StampAttempt> {
      const row = await loadDocumentWithMerchantRefs(em(), documentId);
      const attempt = await attemptStamp(attemptDeps, row, { recordAmbiguous: true });
      if (attempt.outcome === 'unavailable')
        throw ApplicationFailure.retryable(attempt.message, 'PacUnavailable');
      return attempt;
    },

    /** Records a result the fast path could not (retried until the database takes it). */
    async recordStampResult(documentId: string, result: PacStampResult): Promise<StampOutcome> {
      return recordStampResult(attemptDeps, documentId, result);
    },

    async loadStampOutcome(documentId: string): Promise<StampOutcome> {
      const outcome = stampOutcomeOf(await loadDocumentById(em(), documentId));
      if (!outcome) throw new Error(`document ${documentId} has no recorded stamp outcome yet`);
      return outcome;
    },

    /** The PAC's already-stamped question for the persisted sealed XML (a read: always safe). */
    async lookupStamped(documentId: string) {
      const row = await loadDocumentById(em(), documentId);
      const result = await documentPac(deps.pac.forMode(row.livemode), row).lookupStamped(row.sealed_xml!, {
        correlationId: documentId,
      });
      if (result.outcome === 'stamped') return { outcome: 'stamped', uuid: result.uuid, xml: result.xml };
      if (result.outcome === 'not_stamped')
        return { outcome: 'not_stamped', detail: `${result.code} ${result.message}` };
      return {
        outcome: 'unknown',
        detail: result.outcome === 'pending' ? result.detail : `${result.reason}: ${result.detail}`,
      };
    },

    /** An operator said "stamped with UUID X": fetch the stamp from the PAC when it has it, else keep the UUID alone. */
    async recordOperatorStamped(documentId: string, uuid: string): Promise<StampOutcome> {
      const row = await loadDocumentById(em(), documentId);
      const lookup = await documentPac(deps.pac.forMode(row.livemode), row).lookupStamped(row.sealed_xml!, {
        correlationId: documentId,
      });
      const stamped = lookup.outcome === 'stamped' ? lookup : null;
      return stampOutcomeOf(
        await recordOperatorStamped(em(), documentId, uuid, stamped, deps.config.api.portalUrl),
      )!;
    },

    async recordStampFailure(documentId, failure): Promise<StampOutcome> {
      return stampOutcomeOf(await recordStampFailure(em(), documentId, failure))!;
    },
    async recordReconciliation(documentId, resolution): Promise<void> {
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
