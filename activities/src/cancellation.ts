import { ApplicationFailure } from '@temporalio/activity';
import {
  cancellationProgress,
  recordCancellationRefused,
  recordCancellationResolved,
  recordCancellationSubmitted,
  submitCancellation,
  UnsealableDocumentError,
  type AcuseRecord,
  type CancellationProgress,
} from '@cfdi/services';
import type { Activities } from '@cfdi/temporal-contract';
import type { ActivityDeps } from './deps';

type CancellationActivities = Pick<
  Activities,
  | 'submitCancellation'
  | 'cancellationProgress'
  | 'recordCancellationSubmitted'
  | 'recordCancellationResolved'
  | 'recordCancellationRefused'
>;

export function cancellationActivities(deps: ActivityDeps): CancellationActivities {
  const em = () => deps.orm.em.fork();
  const now = () => deps.now?.() ?? new Date();
  const pacDeps = { pac: deps.pac, loadCsd: deps.loadCsd, storage: deps.files.storage, now };
  return {
    /**
     * Signs and sends the pending request; stores the acuse. Repeatable (the SAT answers a repeated request with 202
     * and the current state). Throws a retryable failure when nothing was decided, a final one when the CSD cannot sign.
     */
    async submitCancellation(
      documentId: string,
    ): Promise<
      | { outcome: 'cancelled' | 'pending'; acuse: AcuseRecord }
      | { outcome: 'refused'; code: string; message: string }
    > {
      let submission;
      try {
        submission = await submitCancellation(em(), pacDeps, documentId);
      } catch (error) {
        if (error instanceof UnsealableDocumentError)
          throw ApplicationFailure.nonRetryable(error.message, 'Unsignable', error.code);
        throw error;
      }
      if (submission.outcome === 'retry')
        throw ApplicationFailure.retryable(
          `PAC did not answer the cancellation: ${submission.detail}`,
          'PacUnavailable',
        );
      return submission;
    },

    /** The SAT status while the receiver decides (a read). */
    async cancellationProgress(documentId: string): Promise<CancellationProgress> {
      return cancellationProgress(em(), pacDeps, documentId);
    },

    /** Each transition happens once; repeated calls find it done. */
    async recordCancellationSubmitted(
      documentId: string,
      submitted: { outcome: 'cancelled' | 'pending'; acuse: AcuseRecord },
    ): Promise<void> {
      await recordCancellationSubmitted(em(), documentId, submitted, now());
    },
    async recordCancellationResolved(documentId: string, resolution: 'accepted' | 'rejected'): Promise<void> {
      await recordCancellationResolved(em(), documentId, resolution, now());
    },
    async recordCancellationRefused(documentId: string, reason: string): Promise<void> {
      await recordCancellationRefused(em(), documentId, reason);
    },
  };
}
