import { allHandlersFinished, ActivityFailure, condition, patched, proxyActivities, proxyLocalActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { HandlerUnfinishedPolicy } from '@temporalio/common';
import type { Activities } from '@cfdi/activities';
import { filesTaskQueue, resolveReconciliationSignal, stampOutcomeUpdate } from './names';
import type { OperatorResolution, StampAttempt, StampOutcome, StampWorkflowInput } from './stamp-types';
import { nextLookupDelay } from './reconciliation-schedule';

// Database steps are short and idempotent: local activities (no server round trip), retried freely.
const db = proxyLocalActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

// The fast path (seal, PAC call, recording) is one local activity, so a stamp is one workflow task with no activity
// round trips. Only "unavailable" (nothing reached the PAC) is thrown and retried, a few times within the API's wait;
// ambiguous outcomes come back as values and are never re-sent. If the worker dies mid-call, its workflow task times
// out, another worker replays and calls again: the sealed bytes are the same, so the PAC returns the original stamp.
const fastPath = proxyLocalActivities<Activities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumAttempts: 4 },
});

// Reads during reconciliation: retry until the PAC answers.
const lookups = proxyActivities<Activities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
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
  setHandler(stampOutcomeUpdate, async () => {
    await condition(() => outcome !== undefined);
    return outcome!;
  }, { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON });
  setHandler(resolveReconciliationSignal, (r) => {
    resolution ??= r;
  });
  const final = await stamp(input, (o) => (outcome = o), () => resolution);
  // A stamp can end within one workflow task; let the waiting API's update return before the workflow closes.
  await condition(allHandlersFinished);
  return final;
}

async function stamp(
  input: StampWorkflowInput,
  report: (outcome: StampOutcome) => StampOutcome,
  operator: () => OperatorResolution | undefined,
): Promise<StampOutcome> {
  const { documentId } = input;
  let attempt: StampAttempt;
  try {
    attempt = await fastPath.stampDocument(documentId);
  } catch (error) {
    const detail = failureMessage(error);
    await db.recordStampFailure(documentId, { code: 'pac_unavailable', message: detail });
    return report({ outcome: 'unavailable', detail });
  }
  if (attempt.outcome === 'unrecorded') attempt = await db.recordStampResult(documentId, attempt.result);

  switch (attempt.outcome) {
    case 'stamped':
      report({ outcome: 'stamped', uuid: attempt.uuid });
      return withFiles(documentId, attempt);
    case 'rejected':
    case 'failed':
      return report({ outcome: attempt.outcome, code: attempt.code, message: attempt.message });
    case 'ambiguous': {
      report({ outcome: 'reconciling', detail: attempt.detail });
      const final = await reconcile(input, operator);
      return final.outcome === 'stamped' ? withFiles(documentId, { uuid: final.uuid, filesReady: false }) : final;
    }
    case 'unrecorded':
      throw new Error('unreachable: recordStampResult records or throws');
  }
}

/** Files the stamp path did not render inline (large documents, inline failures, reconciled stamps). */
async function withFiles(documentId: string, stamped: { uuid: string; filesReady: boolean }): Promise<StampOutcome> {
  if (!stamped.filesReady) await filesActivities().generateDocumentFiles(documentId);
  return { outcome: 'stamped', uuid: stamped.uuid };
}

/**
 * Ambiguous PAC outcome: never re-send. Ask the PAC's already-stamped lookup on a backoff schedule and accept an
 * operator's decision at any moment; the first definitive answer wins and is recorded with who decided.
 */
async function reconcile(input: StampWorkflowInput, operator: () => OperatorResolution | undefined): Promise<StampOutcome> {
  const { documentId } = input;
  let delaySeconds = input.reconciliation.firstLookupSeconds;
  let notStampedAnswers = 0;
  for (;;) {
    await condition(() => operator() !== undefined, delaySeconds * 1000);
    const decision = operator();
    if (decision) {
      await db.recordReconciliation(documentId, decision);
      if (decision.stamped) {
        const uuid = await lookups.recordOperatorStamped(documentId, decision.uuid!);
        return { outcome: 'stamped', uuid };
      }
      await db.recordStampFailure(documentId, { code: 'not_stamped', message: `Resolved as not stamped by ${decision.resolvedBy}` });
      return { outcome: 'failed', code: 'not_stamped', message: 'resolved as not stamped' };
    }
    const lookup = await lookups.lookupStamped(documentId);
    if (lookup.outcome === 'stamped') {
      // The PAC's stamp settles it; a decision sent meanwhile is kept in the history, marked as overtaken.
      const late = patched('late-operator-decision') ? operator() : undefined;
      if (late) await db.recordReconciliation(documentId, { ...late, note: `${late.note ? `${late.note} ` : ''}(overtaken: the PAC's lookup found the stamp)` });
      await db.recordReconciliation(documentId, { stamped: true, uuid: lookup.uuid, resolvedBy: 'pac-lookup' });
      const recorded = await db.recordStampResult(documentId, { outcome: 'stamped', uuid: lookup.uuid, xml: lookup.xml });
      if (recorded.outcome === 'stamped') return { outcome: 'stamped', uuid: recorded.uuid };
      if (recorded.outcome === 'failed') return recorded;
      throw new Error(`a looked-up stamp was recorded as ${recorded.outcome}`);
    }
    // Two "never stamped" answers a backoff apart rule out the PAC's short post-stamp race (pac.md 3.1). An operator's
    // decision that arrived while the PAC was being asked is not dropped: the next turn of the loop records it.
    if (lookup.outcome === 'not_stamped' && ++notStampedAnswers >= 2) {
      if (patched('late-operator-decision') && operator()) continue;
      await db.recordReconciliation(documentId, { stamped: false, resolvedBy: 'pac-lookup', note: lookup.detail });
      await db.recordStampFailure(documentId, { code: 'not_stamped', message: `The PAC has no stamp for this document: ${lookup.detail}` });
      return { outcome: 'failed', code: 'not_stamped', message: lookup.detail };
    }
    delaySeconds = nextLookupDelay(delaySeconds, input.reconciliation.maxLookupSeconds);
  }
}

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
