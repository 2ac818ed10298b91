import type { EntityManager } from '@cfdi/db';
import { ValidationError } from '../errors';
import type { PacClients } from '../pac-clients';
import { loadDocumentById, type DocumentRow } from './document-row';
import { documentPac } from './kinds';
import { otherHolderOfUuid, type ReconciliationResolution } from './stamping-outcomes';

/** An operator's decision on an ambiguous stamp, as `cfdi reconcile resolve` and the console take it. */
export interface ReconciliationDecision {
  stamped: boolean;
  /** The stamp's UUID (upper case), with `stamped`. */
  uuid?: string;
  /** With `stamped`: record the UUID although the PAC has no copy of the stamp (no XML, no files). */
  withoutXml?: boolean;
}

export type ReconciliationRefusal =
  | { reason: 'not_awaiting'; message: string }
  | { reason: 'uuid_of_another_document'; message: string }
  | { reason: 'pac_disagrees'; message: string };

export const isAwaitingReconciliation = (row: Pick<DocumentRow, 'needs_reconciliation' | 'status'>) =>
  row.needs_reconciliation && row.status === 'stamping';

/**
 * Why the decision must not be signalled, or null when it may: the document no longer waits, the UUID is another
 * document's stamp (the workflow could never record it), or the PAC's copy contradicts "stamped with `uuid`" (without
 * its copy the document would be confirmed with no XML and no files, which only `withoutXml` accepts).
 */
async function reconciliationRefusal(
  em: EntityManager,
  pac: PacClients,
  row: DocumentRow,
  decision: ReconciliationDecision,
): Promise<ReconciliationRefusal | null> {
  const documentId = row.id;
  if (!isAwaitingReconciliation(row)) {
    return {
      reason: 'not_awaiting',
      message: `${documentId} is not awaiting reconciliation (status ${row.status}${row.needs_reconciliation ? '' : ', no ambiguous failure'}); nothing done.`,
    };
  }
  const owner = decision.uuid ? await otherHolderOfUuid(em, decision.uuid, documentId) : null;
  if (owner)
    return {
      reason: 'uuid_of_another_document',
      message: `${decision.uuid} is the stamp of ${owner}, not of ${documentId}; nothing done.`,
    };
  if (!decision.stamped || decision.withoutXml) return null;
  const lookup = await documentPac(pac.forMode(row.livemode), row).lookupStamped(row.sealed_xml!, {
    correlationId: row.id,
  });
  if (lookup.outcome === 'stamped') {
    return lookup.uuid.toUpperCase() === decision.uuid
      ? null
      : {
          reason: 'pac_disagrees',
          message: `the PAC holds this document's stamp as ${lookup.uuid}, not ${decision.uuid}; nothing done.`,
        };
  }
  const detail =
    lookup.outcome === 'not_stamped'
      ? `it has no stamp for it (${lookup.code})`
      : `it did not answer (${lookup.outcome})`;
  return {
    reason: 'pac_disagrees',
    message: `the PAC cannot confirm ${decision.uuid}: ${detail}. Recording it would leave the document stamped without its XML and files; nothing done.`,
  };
}

/** An operator's decision as a console form or the command line gives it, before the rules below. */
export interface ReconciliationDecisionInput {
  /** `stamped` or `not_stamped`; anything else is refused. */
  decision: unknown;
  uuid?: unknown;
  withoutXml?: unknown;
  /** Why: required, kept with the resolution and shown by `cfdi reconcile show`. */
  note?: unknown;
  /** Who decides: the console user's e-mail, or `--by` on the command line. */
  resolvedBy: unknown;
}

export const RECONCILIATION_NOTE_MAX = 500;
const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The rules an operator's decision must satisfy whatever face takes it: a decision, a well-formed UUID with
 * `stamped` and none without, `withoutXml` with `stamped` only, a note saying why and who decides. Throws the first
 * broken rule as a ValidationError (its path names the field: /decision, /uuid, /withoutXml, /note, /resolvedBy).
 */
export function parseReconciliationDecision(
  input: ReconciliationDecisionInput,
): ReconciliationResolution & { withoutXml: boolean } {
  if (input.decision !== 'stamped' && input.decision !== 'not_stamped')
    throw ValidationError.field('/decision', 'Choose "stamped" or "not_stamped".');
  const stamped = input.decision === 'stamped';
  const uuid = text(input.uuid).toUpperCase();
  const withoutXml = input.withoutXml === true;
  if (stamped && !uuid) throw ValidationError.field('/uuid', 'A "stamped" decision needs the stamp\'s UUID.');
  if (stamped && !UUID.test(uuid))
    throw ValidationError.field('/uuid', 'The UUID must be 8-4-4-4-12 hexadecimal digits.');
  if (!stamped && uuid) throw ValidationError.field('/uuid', 'The UUID goes with a "stamped" decision only.');
  if (!stamped && withoutXml)
    throw ValidationError.field('/withoutXml', '"Without XML" goes with a "stamped" decision only.');
  const note = text(input.note);
  if (!note) throw ValidationError.field('/note', 'Say why: the note is kept with the decision.');
  if (note.length > RECONCILIATION_NOTE_MAX)
    throw ValidationError.field('/note', `The note must be at most ${RECONCILIATION_NOTE_MAX} characters.`);
  const resolvedBy = text(input.resolvedBy);
  if (!resolvedBy) throw ValidationError.field('/resolvedBy', 'Say who decides.');
  return { stamped, ...(stamped ? { uuid } : {}), withoutXml, note, resolvedBy };
}

export type CheckedReconciliation =
  | { ok: true; resolution: ReconciliationResolution; document: DocumentRow }
  | { ok: false; refusal: ReconciliationRefusal };

/**
 * An operator's decision through every rule, as `cfdi reconcile resolve` and the console's queue take it: the input
 * rules (ValidationError), then the document's state and the PAC's copy (a refusal). `resolution` is what the face
 * signals to the stamp workflow; an unknown document is a NotFoundError.
 */
export async function checkReconciliationDecision(
  em: EntityManager,
  pac: PacClients,
  documentId: string,
  input: ReconciliationDecisionInput,
): Promise<CheckedReconciliation> {
  const { withoutXml, ...resolution } = parseReconciliationDecision(input);
  const document = await loadDocumentById(em, documentId);
  const refusal = await reconciliationRefusal(em, pac, document, { ...resolution, withoutXml });
  return refusal ? { ok: false, refusal } : { ok: true, resolution, document };
}

/** What the PAC said, with the stamp's UUID, its "not stamped" code or why there was no answer. */
export interface PacAnswer {
  outcome: 'stamped' | 'not_stamped' | 'no_answer';
  detail: string;
}

/** The PAC's answer to "did you stamp this?" for the queue: what an operator sees before deciding. */
export async function lookupAtPac(pac: PacClients, row: DocumentRow): Promise<PacAnswer> {
  try {
    const lookup = await documentPac(pac.forMode(row.livemode), row).lookupStamped(row.sealed_xml!, {
      correlationId: row.id,
    });
    if (lookup.outcome === 'stamped') return { outcome: 'stamped', detail: lookup.uuid };
    return lookup.outcome === 'not_stamped'
      ? { outcome: 'not_stamped', detail: lookup.code }
      : { outcome: 'no_answer', detail: lookup.outcome };
  } catch (error) {
    return { outcome: 'no_answer', detail: (error as Error).message };
  }
}
