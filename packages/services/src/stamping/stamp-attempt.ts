import type { EntityManager } from '@cfdi/db';
import type { PacClient } from '@cfdi/pac';
import {
  conceptCount,
  documentPac,
  recordPacResult,
  sealDocument,
  stampOutcomeOf,
  UnsealableDocumentError,
  type CsdLoader,
  type DocumentRow,
  type DocumentWithMerchantRefs,
  type PacStampResult,
  type StampOutcome,
} from '../documents';
import { automaticEmailPossible } from '../emails';

/** What one attempt at a stamp uses; the API and the worker's activities each pass their own. */
export interface StampAttemptDeps {
  em: () => EntityManager;
  pac: { forMode(livemode: boolean): PacClient };
  loadCsd: CsdLoader;
  now: () => Date;
  filesInlineMaxItems: number;
  portalUrl: string;
  /** Whether automatic e-mails can be sent at all (a mailer is configured). */
  mailer: boolean;
  /** Told of every outcome this process records (Prometheus' `cfdi_stamps_total`). */
  stampRecorded?: (outcome: string) => void;
  /** Told when the PAC answered but the database would not take the result (it is handed back). */
  warn?: (message: string, fields: Record<string, unknown>) => void;
}

/**
 * An attempt's result: the recorded outcome, or (`unrecorded`) the PAC's result handed back for the workflow to record
 * with retries (its database write failed, or the caller records ambiguous answers only through the workflow). A stamp
 * it recorded says whether an automatic e-mail can be due (`autoEmail`: a mailer, the customer's or merchant's setting
 * on, a kind with a PDF); `false` spares the workflow its e-mail step. Absent (results recorded before 2026-11-28
 * 17:00 UTC, other paths): the step runs.
 */
export type StampAttempt =
  (StampOutcome & { autoEmail?: boolean }) | { outcome: 'unrecorded'; result: PacStampResult };

/** Nothing reached the PAC (refused connection, 5xx before acceptance): the same bytes may be sent again. */
export interface PacUnreachable {
  outcome: 'unavailable';
  message: string;
}

/**
 * One attempt at a stamp: seal once (persisted before any PAC call), send the sealed bytes, record the outcome. Safe
 * to repeat and to run twice at once: the same bytes make the PAC answer "already stamped" with the original, and an
 * outcome already recorded is returned, never re-sent. When the PAC answered but the database write failed, the
 * result comes back `unrecorded`, so a stamp the PAC made is never refunded. `recordAmbiguous: false` hands an
 * ambiguous answer back the same way, for the workflow that reconciles it to record.
 */
export async function attemptStamp(
  deps: StampAttemptDeps,
  row: DocumentWithMerchantRefs,
  options: { recordAmbiguous: boolean },
): Promise<StampAttempt | PacUnreachable> {
  const documentId = row.id;
  const earlier = stampOutcomeOf(row);
  if (earlier) return earlier;
  let sealedXml: string;
  try {
    sealedXml = await sealDocument(deps.em(), row, deps.loadCsd, deps.now());
  } catch (error) {
    if (!(error instanceof UnsealableDocumentError)) throw error;
    return recordOrHandBack(deps, documentId, {
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
      return { outcome: 'unavailable', message: `PAC unavailable (${answer.reason}): ${answer.detail}` };
    case 'stamped': {
      const attempt = await recordOrHandBack(
        deps,
        documentId,
        { outcome: 'stamped', uuid: answer.uuid, xml: answer.xml },
        row,
      );
      if (attempt.outcome !== 'stamped') return attempt;
      // Whether the workflow's e-mail step can have anything to do (it decides the recipients itself).
      return { ...attempt, autoEmail: automaticEmailDue(deps, row) };
    }
    case 'rejected':
      return recordOrHandBack(deps, documentId, {
        outcome: 'rejected',
        code: answer.code,
        message: answer.message,
      });
    case 'ambiguous': {
      const result: PacStampResult = { outcome: 'ambiguous', detail: `${answer.reason}: ${answer.detail}` };
      return options.recordAmbiguous
        ? recordOrHandBack(deps, documentId, result)
        : { outcome: 'unrecorded', result };
    }
  }
}

/**
 * Whether a stamp of this document has steps after its recording: files too large to render on first download (the
 * files queue renders them) or an automatic e-mail that may be due. The workflow takes those; the API's own attempt
 * is for documents whose stamp ends with its recording.
 */
export function stepsAfterStamp(deps: StampAttemptDeps, row: DocumentWithMerchantRefs): boolean {
  return conceptCount(row) > deps.filesInlineMaxItems || automaticEmailDue(deps, row);
}

const automaticEmailDue = (deps: StampAttemptDeps, row: DocumentWithMerchantRefs) =>
  deps.mailer && automaticEmailPossible(row);

/**
 * Records a PAC result (ledger, status, event) and returns the outcome. `loaded`, the document as read before the
 * PAC call, lets a small document's files be marked ready in the same write.
 */
export async function recordStampResult(
  deps: StampAttemptDeps,
  documentId: string,
  result: PacStampResult,
  loaded?: DocumentRow,
): Promise<StampOutcome> {
  const outcome = await recordPacResult(deps.em(), documentId, result, {
    filesInlineMaxItems: deps.filesInlineMaxItems,
    portalUrl: deps.portalUrl,
    loaded,
  });
  deps.stampRecorded?.(outcome.outcome);
  return outcome;
}

async function recordOrHandBack(
  deps: StampAttemptDeps,
  documentId: string,
  result: PacStampResult,
  loaded?: DocumentRow,
): Promise<StampAttempt> {
  try {
    return await recordStampResult(deps, documentId, result, loaded);
  } catch (error) {
    deps.warn?.('recording the stamp result failed; the workflow records it', {
      documentId,
      error: (error as Error).message,
    });
    return { outcome: 'unrecorded', result };
  }
}
