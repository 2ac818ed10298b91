import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { HandlerUnfinishedPolicy } from '@temporalio/common';
import type { Activities } from '@cfdi/temporal-contract';
import type { CancelOutcome, CancelWorkflowInput } from '@cfdi/temporal-contract';
import { cancelOutcomeUpdate } from '@cfdi/temporal-contract';
import { databaseSteps, emailQueue, satLookups } from './activity-proxies';
import { nextLookupDelay } from './reconciliation-schedule';

// Sign and send. A PAC that is down or answers ambiguously is retried a few times within the API's wait: sending
// the request again is harmless (the SAT answers 202 with the current state). A CSD that cannot sign is final.
const pac = proxyActivities<Activities>({
  startToCloseTimeout: '60 seconds',
  retry: {
    initialInterval: '500 milliseconds',
    backoffCoefficient: 2,
    maximumAttempts: 4,
    nonRetryableErrorTypes: ['Unsignable'],
  },
});

// Keeps the history bounded when a request never expires (a second request after a rejection waits indefinitely).
const POLLS_PER_RUN = 200;

/**
 * Cancels one stamped document with the SAT. The request (and its timbre) was recorded by the API; this sends it
 * once, records the answer exactly once, and, when the receiver must accept, polls the SAT status on a durable timer
 * until it is accepted, rejected, or the acceptance window passes.
 */
export async function cancelDocumentWorkflow(input: CancelWorkflowInput): Promise<CancelOutcome> {
  const { documentId } = input;
  let outcome: CancelOutcome | undefined;
  setHandler(
    cancelOutcomeUpdate,
    async () => {
      await condition(() => outcome !== undefined);
      return outcome!;
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );

  if (input.resumePollingSeconds === undefined) {
    let submission;
    try {
      submission = await pac.submitCancellation(documentId);
    } catch (error) {
      const refusal = unsignable(error);
      await databaseSteps.recordCancellationRefused(
        documentId,
        refusal ? `refused: ${refusal.code}` : 'pac_unavailable',
      );
      return (outcome = refusal
        ? { outcome: 'rejected', ...refusal }
        : { outcome: 'unavailable', detail: failureMessage(error) });
    }
    if (submission.outcome === 'refused') {
      await databaseSteps.recordCancellationRefused(documentId, `refused: ${submission.code}`);
      return (outcome = { outcome: 'rejected', code: submission.code, message: submission.message });
    }
    await databaseSteps.recordCancellationSubmitted(documentId, submission);
    outcome = { outcome: submission.outcome };
    if (submission.outcome === 'cancelled') {
      await emailCancellation(documentId);
      return { outcome: 'cancelled' };
    }
  } else {
    outcome = { outcome: 'pending' };
  }
  return awaitReceiver(input);
}

async function awaitReceiver(input: CancelWorkflowInput): Promise<CancelOutcome> {
  let delaySeconds = input.resumePollingSeconds ?? input.polling.firstPollSeconds;
  for (let polls = 0; polls < POLLS_PER_RUN; polls++) {
    await sleep(delaySeconds * 1000);
    const progress = await satLookups.cancellationProgress(input.documentId);
    if (progress !== 'pending') {
      await databaseSteps.recordCancellationResolved(input.documentId, progress);
      if (progress !== 'accepted') return { outcome: 'receiver_rejected' };
      await emailCancellation(input.documentId);
      return { outcome: 'cancelled' };
    }
    delaySeconds = nextLookupDelay(delaySeconds, input.polling.maxPollSeconds);
  }
  return continueAsNew<typeof cancelDocumentWorkflow>({ ...input, resumePollingSeconds: delaySeconds });
}

/** The merchant's automatic e-mail of the cancellation, with the acuse (histories from before it replay without it). */
async function emailCancellation(documentId: string): Promise<void> {
  if (patched('auto-email'))
    await emailQueue.queueAutomaticEmail({
      documentId,
      trigger: 'cancelled',
      taskQueue: workflowInfo().taskQueue,
    });
}

function unsignable(error: unknown): { code: string; message: string } | null {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type === 'Unsignable') {
    return {
      code: String((cause.details?.[0] as string | undefined) ?? 'unsignable'),
      message: cause.message,
    };
  }
  return null;
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
