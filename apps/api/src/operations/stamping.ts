import {
  AppError,
  attemptStamp,
  loadDocument,
  loadDocumentWithMerchantRefs,
  ServiceUnavailableError,
  stampOutcomeOf,
  toDocumentView,
  stepsAfterStamp,
  toStampingView,
  type DocumentRow,
  type Scope,
  type StampAttemptDeps,
  type StampOutcome,
} from '@cfdi/services';
import type { StampWorkflowInput } from '@cfdi/temporal-contract';
import type { FastifyBaseLogger } from 'fastify';
import { startStamping } from '@cfdi/temporal-contract/client';
import type { AppDeps } from '../deps';
import { within } from '../within';
import { problemAnswer, runIdempotent, type Answer } from './idempotent';

/** What storing a document needs besides its EntityManager: the configuration, the catalogs and the clock. */
export const stampingDeps = (deps: AppDeps) => ({
  config: deps.config,
  catalogs: deps.catalogs,
  now: deps.now,
});

/** A request that stores one document: its Idempotency-Key, the REST operation it names, its body. */
export interface DocumentRequest {
  key: string;
  operation: string;
  body: unknown;
  log: FastifyBaseLogger;
}

/**
 * Runs a request that stores one document under its Idempotency-Key (`execute` gets the key as claimed); a retry
 * after the document was stored answers that document as it stands now instead of storing another.
 */
export function idempotentDocument(
  deps: AppDeps,
  scope: Scope,
  request: DocumentRequest,
  execute: (claimedKey: string) => Promise<Answer>,
): Promise<Answer> {
  const { key, operation, body, log } = request;
  return runIdempotent(deps, scope, key, operation, body, execute, (id) =>
    resumedAnswer(deps, scope, id, log),
  );
}

/** `idempotentDocument` for a request that stores a document with `store` (its timbre reserved) and stamps it. */
export function storeAndStamp(
  deps: AppDeps,
  scope: Scope,
  request: DocumentRequest,
  store: (claimedKey: string) => Promise<DocumentRow>,
): Promise<Answer> {
  return idempotentDocument(deps, scope, request, async (claimed) =>
    stampAndAnswer(deps, scope, await store(claimed), request.log),
  );
}

/**
 * Stamps a freshly created document and turns the outcome into the HTTP answer: 201 stamped, 422 sat_rejected
 * (refunded), 503 pac_unavailable (refunded), 202 while still stamping or reconciling. The API makes the first attempt
 * itself (`attemptStamp`: seal once, send, record) when the stamp ends with its recording, so the common stamp never
 * goes through Temporal. Everything else goes to the stamp workflow (`handOver`): documents with steps after the stamp
 * (large files, an automatic e-mail), a PAC that could not be reached (retried there), an ambiguous answer (reconciled
 * there) or a result the database would not take. The document is committed with its timbre reserved before any of
 * it: if this process dies mid-attempt, the resume-stalled sweep starts the workflow, which sends the same sealed bytes.
 */
export async function stampAndAnswer(
  deps: AppDeps,
  scope: Scope,
  row: DocumentRow,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const waitMs = deps.config.stampWaitMs;
  // STAMP_WAIT_MS=0: the client wants its 202 at once; the workflow does everything.
  if (waitMs <= 0) return handOver(deps, scope, { documentId: row.id }, 0, log);
  const deadline = Date.now() + waitMs;
  const attempt = attemptInApi(deps, row.id, log);
  const settled = await within(attempt, waitMs, undefined);
  if (settled === undefined) {
    // The wait ran out (a slow PAC): the attempt goes on after the 202 and hands over what it cannot finish.
    void attempt.then(async (late) => {
      if (late.outcome === 'handover') await runWorkflow(deps, late.input, 0, log);
    });
    return currentAnswer(deps, scope, row.id);
  }
  switch (settled.outcome) {
    case 'handover':
      return handOver(deps, scope, settled.input, deadline - Date.now(), log);
    case 'reconciling':
      return currentAnswer(deps, scope, row.id);
    default:
      return answerOf(deps, settled);
  }
}

/**
 * The API's attempt: a recorded outcome, or what the workflow is handed (`handover`). An error (the database, the CSD
 * store) is a reason to hand over, never a failed stamp; nothing here rejects.
 */
async function attemptInApi(
  deps: AppDeps,
  documentId: string,
  log: FastifyBaseLogger,
): Promise<StampOutcome | { outcome: 'handover'; input: StampHandover }> {
  const handover = (input: StampHandover = { documentId }) => ({ outcome: 'handover' as const, input });
  try {
    const stamping = attemptDeps(deps, log);
    const row = await loadDocumentWithMerchantRefs(stamping.em(), documentId);
    if (stepsAfterStamp(stamping, row)) return handover();
    const attempt = await attemptStamp(stamping, row, { recordAmbiguous: false });
    if (attempt.outcome === 'unavailable') return handover();
    if (attempt.outcome === 'unrecorded') return handover({ documentId, answered: attempt.result });
    return attempt;
  } catch (error) {
    log.warn({ err: error, documentId }, 'the API could not stamp the document itself; its workflow will');
    return handover();
  }
}

/** What the stamp workflow is started with besides the configuration. */
type StampHandover = Omit<StampWorkflowInput, 'reconciliation'>;

const attemptDeps = (deps: AppDeps, log: FastifyBaseLogger): StampAttemptDeps => ({
  em: () => deps.orm.em.fork(),
  pac: deps.pac,
  loadCsd: deps.loadCsd,
  now: deps.now,
  filesInlineMaxItems: deps.config.filesInlineMaxItems,
  portalUrl: deps.config.api.portalUrl,
  mailer: deps.mailer !== null,
  stampRecorded: deps.metrics.stampRecorded,
  warn: (message, fields) => log.warn(fields, message),
});

/**
 * Starts (or joins) the document's stamp workflow and, for `waitMs`, waits for its outcome. A failure to reach
 * Temporal is not an error for the client: it gets 202 (the key stays bound to the document) and the resume-stalled
 * sweep starts the workflow.
 */
async function handOver(
  deps: AppDeps,
  scope: Scope,
  input: StampHandover,
  waitMs: number,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const outcome = await runWorkflow(deps, input, waitMs, log);
  // The wait ran out, or an ambiguous PAC answer is being reconciled: the document as it stands now.
  if (!outcome || outcome.outcome === 'reconciling') return currentAnswer(deps, scope, input.documentId);
  return answerOf(deps, outcome);
}

/** The workflow's outcome within `waitMs`; null when the wait ran out or Temporal could not be reached (logged). */
async function runWorkflow(
  deps: AppDeps,
  input: StampHandover,
  waitMs: number,
  log: FastifyBaseLogger,
): Promise<StampOutcome | null> {
  try {
    return await startStamping(
      deps.temporal,
      { ...input, reconciliation: deps.config.reconciliation },
      { taskQueue: deps.config.temporal.taskQueue, waitMs },
    );
  } catch (error) {
    log.error(
      { err: error, documentId: input.documentId },
      'could not start the stamp workflow; the resume-stalled sweep will',
    );
    return null;
  }
}

/** The HTTP answer to a recorded outcome: 201 with the document, or the problem of a stamp that failed. */
function answerOf(deps: AppDeps, outcome: Exclude<StampOutcome, { outcome: 'reconciling' }>): Answer {
  if (outcome.outcome === 'stamped')
    return { status: 201, body: toDocumentView(outcome.document, deps.fileUrls) };
  return problemAnswer(deps.config.api.docsUrl, stampFailure(outcome.code, outcome.message));
}

/**
 * A stamp that ended without a UUID (the timbre was refunded): the PAC was unreachable → 503 `pac_unavailable`, which
 * releases the Idempotency-Key so the same key stamps later; any other reason (the SAT's or the PAC's rejection, a CSD
 * that expired or vanished, a duplicate CFDI) → 422 `sat_rejected` with the reason as `satCode`.
 */
function stampFailure(code: string, message: string): AppError {
  if (code === 'pac_unavailable') {
    return new ServiceUnavailableError(
      'pac_unavailable',
      `The PAC is temporarily unavailable (${message}). Nothing was stamped and the timbre was refunded; retry with the same Idempotency-Key.`,
    );
  }
  return new AppError(
    422,
    'sat_rejected',
    'Rejected by the SAT or the PAC',
    `${code}: ${message}. The reserved timbre was refunded.`,
    { satCode: code },
  );
}

/**
 * The answer for a document an earlier attempt with the same Idempotency-Key created but never answered for (it
 * crashed): one still `stamping` is (re)attached to its workflow, started if it has none; others answer as they are.
 */
export async function resumedAnswer(
  deps: AppDeps,
  scope: Scope,
  documentId: string,
  log: FastifyBaseLogger,
): Promise<Answer> {
  const row = await loadDocument(deps.orm.em.fork(), scope, documentId);
  // A draft created under the key (never stamped through it: a stamp's key is bound only once it stamps).
  if (row.status === 'draft') return { status: 201, body: toDocumentView(row, deps.fileUrls) };
  return row.status === 'stamping'
    ? stampAndAnswer(deps, scope, row, log)
    : currentAnswer(deps, scope, documentId);
}

/** The resource as it is now: stamped → 201 with the full resource, otherwise 202 with the reduced shape. */
export async function currentAnswer(deps: AppDeps, scope: Scope, documentId: string): Promise<Answer> {
  const row = await loadDocument(deps.orm.em.fork(), scope, documentId);
  const outcome = stampOutcomeOf(row);
  if (!outcome || outcome.outcome === 'reconciling') return { status: 202, body: toStampingView(row) };
  return answerOf(deps, outcome);
}
