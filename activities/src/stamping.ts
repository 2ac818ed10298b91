import { ApplicationFailure, Context, log } from '@temporalio/activity';
import {
  automaticEmailPossible,
  documentPac,
  loadDocumentById,
  loadDocumentWithMerchantRefs,
  recordOperatorStamped,
  recordReconciliation,
  recordPacResult,
  recordStampFailure,
  generateDocumentFiles,
  sealDocument,
  stampOutcomeOf,
  UnsealableDocumentError,
  type DocumentRow,
  type PacStampResult,
  type StampOutcome,
} from '@cfdi/services';
import type { Activities, StampAttempt } from '@cfdi/temporal-contract';
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
  const record = async (documentId: string, result: PacStampResult, loaded?: DocumentRow) => {
    const outcome = await recordPacResult(em(), documentId, result, {
      filesInlineMaxItems: deps.config.filesInlineMaxItems,
      portalUrl: deps.config.api.portalUrl,
      loaded,
    });
    deps.observer?.stampRecorded(outcome.outcome);
    return outcome;
  };

  /** Hands the PAC's result back to the workflow when its database write fails, so a stamp is never lost. */
  async function recordOrHandBack(
    documentId: string,
    result: PacStampResult,
    loaded?: DocumentRow,
  ): Promise<StampAttempt> {
    try {
      return await record(documentId, result, loaded);
    } catch (error) {
      log.warn('recording the stamp result failed; the workflow records it', {
        documentId,
        error: (error as Error).message,
      });
      return { outcome: 'unrecorded', result };
    }
  }

  return {
    /**
     * The whole fast path of a stamp in one local activity: seal once (persisted before any PAC call), send the sealed
     * bytes, record the outcome. Safe to repeat: the same bytes make the PAC answer "already stamped" with the
     * original, and an outcome already recorded (a retry, or a replay after a worker died before its workflow task
     * ended) is returned, never re-sent. Throws only when nothing reached the PAC (retryable). When the PAC answered
     * but the database write failed, the result comes back `unrecorded` for the workflow to record with retries, so a
     * stamp the PAC made is never refunded.
     */
    async stampDocument(documentId: string): Promise<StampAttempt> {
      const row = await loadDocumentWithMerchantRefs(em(), documentId);
      const earlier = stampOutcomeOf(row);
      if (earlier) return earlier;
      let sealedXml: string;
      try {
        sealedXml = await sealDocument(em(), row, deps.loadCsd, deps.now?.() ?? new Date());
      } catch (error) {
        if (!(error instanceof UnsealableDocumentError)) throw error;
        return recordOrHandBack(documentId, {
          outcome: 'unsealable',
          code: error.code,
          message: error.message,
        });
      }
      const answer = await documentPac(deps.pac.forMode(row.livemode), row).stamp(sealedXml, {
        correlationId: documentId,
      });
      switch (answer.outcome) {
        case 'unavailable':
          throw ApplicationFailure.retryable(
            `PAC unavailable (${answer.reason}): ${answer.detail}`,
            'PacUnavailable',
          );
        case 'stamped': {
          const attempt = await recordOrHandBack(
            documentId,
            { outcome: 'stamped', uuid: answer.uuid, xml: answer.xml },
            row,
          );
          if (attempt.outcome !== 'stamped') return attempt;
          // Whether the workflow's e-mail step can have anything to do (it decides the recipients itself).
          return { ...attempt, autoEmail: deps.emails.mailer !== null && automaticEmailPossible(row) };
        }
        case 'rejected':
          return recordOrHandBack(documentId, {
            outcome: 'rejected',
            code: answer.code,
            message: answer.message,
          });
        case 'ambiguous':
          return recordOrHandBack(documentId, {
            outcome: 'ambiguous',
            detail: `${answer.reason}: ${answer.detail}`,
          });
      }
    },

    /** Records a result the fast path could not (retried until the database takes it). */
    async recordStampResult(documentId: string, result: PacStampResult): Promise<StampOutcome> {
      return record(documentId, result);
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
