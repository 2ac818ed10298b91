import {
  allHandlersFinished,
  ActivityFailure,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { HandlerUnfinishedPolicy } from '@temporalio/common';
import { filesTaskQueue, resolveReconciliationSignal, stampOutcomeUpdate } from '@cfdi/temporal-contract';
import type {
  Activities,
  OperatorResolution,
  StampAttempt,
  StampOutcome,
  StampWorkflowInput,
} from '@cfdi/temporal-contract';
import { readAttempt, readOperatorStamped, readStampFailure, type EarlierStamp } from './earlier-results';
import { databaseSteps, emailQueue, satLookups } from './activity-proxies';
import { nextLookupDelay } from './reconciliation-schedule';

// The fast path (seal, PAC call, recording) is one local activity, so a stamp is one workflow task with no activity
// round trips. Only "unavailable" (nothing reached the PAC) is thrown and retried, a few times within the API's wait;
// ambiguous outcomes come back as values and are never re-sent. If the worker dies mid-call, its workflow task times
// out, another worker replays and calls again: the sealed bytes are the same, so the PAC returns the original stamp.
const fastPath = proxyLocalActivities<Activities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 4 },
});

/** File rendering runs on the files queue next to this workflow's queue; retried, then marked failed. */
const filesActivities = () =>
  proxyActivities<Activities>({
    taskQueue: filesTaskQueue(workflowInfo().taskQueue),
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 5 },
  });

/**
 * Stamps one document (invoice, credit note or payment complement) exactly once. The sealed XML is persisted
 * before the PAC call and re-sent byte-identical on retries; the ledger is written once whichever way it ends.
 */
export async function stampDocumentWorkflow(input: StampWorkflowInput): Promise<StampOutcome> {
  let outcome: StampOutcome | undefined;
  let resolution: OperatorResolution | undefined;
  setHandler(
    stampOutcomeUpdate,
    async () => {
      await condition(() => outcome !== undefined);
      return outcome!;
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );
  setHandler(resolveReconciliationSignal, (r) => {
    resolution ??= r;
  });
  let autoEmail: boolean | undefined;
  const final = await stamp(
    input,
    (o) => (outcome = o),
    () => resolution,
    (possible) => (autoEmail = possible),
  );
  // After the answer and the files: the merchant's automatic e-mail (histories from before it replay without it).
  // When the fast path said none can be due, nothing is scheduled, not even the patch marker: an activity task, a
  // workflow task and eight history events fewer per stamp. No patch is needed for that branch: the fast path's
  // result, recorded in the history's local-activity marker, decides it on replay, and results recorded before it
  // said so (no `autoEmail`) take the step as they did.
  if (final.outcome === 'stamped' && autoEmail !== false && patched('auto-email'))
    await emailQueue.queueAutomaticEmail({
      documentId: input.documentId,
      trigger: 'stamped',
      taskQueue: workflowInfo().taskQueue,
    });
  // A stamp can end within one workflow task; let the waiting API's update return before the workflow closes.
  await condition(allHandlersFinished);
  return final;
}

async function stamp(
  input: StampWorkflowInput,
  report: (outcome: StampOutcome) => StampOutcome,
  operator: () => OperatorResolution | undefined,
  autoEmailPossible: (possible: boolean | undefined) => void,
): Promise<StampOutcome> {
  const { documentId } = input;
  // The API's own attempt got the PAC's answer and left its recording here: record it, send nothing. (A run's input
  // never changes, so replays take the same branch; runs started before the field existed have none.)
  let attempt = input.answered
    ? readAttempt(await databaseSteps.recordStampResult(documentId, input.answered))
    : await sendOnce(documentId, autoEmailPossible);
  if (attempt.outcome === 'unrecorded')
    attempt = readAttempt(await databaseSteps.recordStampResult(documentId, attempt.result));

  switch (attempt.outcome) {
    case 'stamped':
      report(attempt);
      // Small documents' files are marked ready in the recording and produced on first download.
      if (attempt.document.files_status !== 'ready')
        await filesActivities().generateDocumentFiles(documentId);
      return attempt;
    case 'earlier_stamp': {
      const outcome = await earlierStampOutcome(documentId);
      report(outcome);
      if (!attempt.filesReady) await filesActivities().generateDocumentFiles(documentId);
      return outcome;
    }
    case 'failed':
      return report(attempt);
    case 'reconciling': {
      report(attempt);
      const final = await reconcile(input, operator);
      if (final.outcome === 'failed') return final;
      // A reconciled stamp's files were never rendered on the stamp path.
      await filesActivities().generateDocumentFiles(documentId);
      return final.outcome === 'stamped' ? final : earlierStampOutcome(documentId);
    }
    case 'unrecorded':
      throw new Error('unreachable: recordStampResult records or throws');
  }
}

/** The fast path; when nothing could reach the PAC after its retries, that failure as recorded (refunded). */
async function sendOnce(
  documentId: string,
  autoEmailPossible: (possible: boolean | undefined) => void,
): Promise<StampAttempt | EarlierStamp> {
  try {
    const { autoEmail, ...attempt } = (await fastPath.stampDocument(documentId)) as StampAttempt & {
      autoEmail?: boolean;
    };
    autoEmailPossible(autoEmail);
    return readAttempt(attempt as StampAttempt);
  } catch (error) {
    return recordFailure(documentId, { code: 'pac_unavailable', message: failureMessage(error) });
  }
}

/** Records a stamp that ended without a UUID (refunding its timbre) and returns the outcome as recorded. */
async function recordFailure(documentId: string, failure: { code: string; message: string }) {
  return readStampFailure(await databaseSteps.recordStampFailure(documentId, failure), failure);
}

/**
 * The outcome of a stamp an earlier worker recorded without its document: read from the database. Replaying a
 * history where that earlier worker went on (no marker), nothing is read; the run's outcome then says to read the
 * document (`reconciling` makes the API answer from the database).
 */
async function earlierStampOutcome(documentId: string): Promise<StampOutcome> {
  if (patched('earlier-stamp-outcome')) return databaseSteps.loadStampOutcome(documentId);
  return { outcome: 'reconciling', detail: 'stamped by an earlier worker version: read the document' };
}

/**
 * Ambiguous PAC outcome: never re-send. Ask the PAC's already-stamped lookup on a backoff schedule and accept an
 * operator's decision at any moment; the first definitive answer wins and is recorded with who decided.
 */
async function reconcile(
  input: StampWorkflowInput,
  operator: () => OperatorResolution | undefined,
): Promise<StampOutcome | EarlierStamp> {
  const { documentId } = input;
  let delaySeconds = input.reconciliation.firstLookupSeconds;
  let notStampedAnswers = 0;
  for (;;) {
    await condition(() => operator() !== undefined, delaySeconds * 1000);
    const decision = operator();
    if (decision) {
      await databaseSteps.recordReconciliation(documentId, decision);
      if (decision.stamped)
        return readOperatorStamped(await satLookups.recordOperatorStamped(documentId, decision.uuid!));
      return recordFailure(documentId, {
        code: 'not_stamped',
        message: `Resolved as not stamped by ${decision.resolvedBy}`,
      });
    }
    const lookup = await satLookups.lookupStamped(documentId);
    if (lookup.outcome === 'stamped') {
      // The PAC's stamp settles it; a decision sent meanwhile is kept in the history, marked as overtaken.
      const late = patched('late-operator-decision') ? operator() : undefined;
      if (late)
        await databaseSteps.recordReconciliation(documentId, {
          ...late,
          note: `${late.note ? `${late.note} ` : ''}(overtaken: the PAC's lookup found the stamp)`,
        });
      await databaseSteps.recordReconciliation(documentId, {
        stamped: true,
        uuid: lookup.uuid,
        resolvedBy: 'pac-lookup',
      });
      const recorded = readAttempt(
        await databaseSteps.recordStampResult(documentId, {
          outcome: 'stamped',
          uuid: lookup.uuid,
          xml: lookup.xml,
        }),
      );
      if (recorded.outcome === 'reconciling' || recorded.outcome === 'unrecorded')
        throw new Error(`a looked-up stamp was recorded as ${recorded.outcome}`);
      return recorded;
    }
    // Two "never stamped" answers a backoff apart rule out the PAC's short post-stamp race (pac.md 3.1). An operator's
    // decision that arrived while the PAC was being asked is not dropped: the next turn of the loop records it.
    if (lookup.outcome === 'not_stamped' && ++notStampedAnswers >= 2) {
      if (patched('late-operator-decision') && operator()) continue;
      await databaseSteps.recordReconciliation(documentId, {
        stamped: false,
        resolvedBy: 'pac-lookup',
        note: lookup.detail,
      });
      return recordFailure(documentId, {
        code: 'not_stamped',
        message: `The PAC has no stamp for this document: ${lookup.detail}`,
      });
    }
    delaySeconds = nextLookupDelay(delaySeconds, input.reconciliation.maxLookupSeconds);
  }
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
