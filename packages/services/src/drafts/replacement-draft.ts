import type { EntityManager } from '@cfdi/db';
import { ConflictError } from '../errors';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { kindOf } from '../documents/kinds';
import type { StampingDeps } from '../documents/stamping-deps';
import { copyBody } from './copy-document';
import { createDraft } from './create-draft';
import { loadInvoiceFor } from './draft-row';

/**
 * The first step of a substitution (cancellation motive 01): a draft of a new invoice relating the stamped one with
 * TipoRelacion 04. It carries the original's body, but the saved customer's current data when the original was made
 * for one (a corrected receiver is the usual reason to substitute). Once it is stamped, the original is cancelled
 * with motive 01 naming its UUID, which `requestCancellation` checks relates the original.
 */
export async function replacementDraft(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  id: string,
): Promise<DocumentRow> {
  const source = await loadInvoiceFor(em, scope, id);
  const kind = kindOf(source);
  const cancelling = (source.cancellation as { status?: string } | null)?.status === 'pending';
  if (kind.name !== 'invoice' || source.status !== 'stamped' || !source.uuid || cancelling)
    throw new ConflictError(
      'not_replaceable',
      `${source.id} is ${cancelling ? 'being cancelled' : source.status}${kind.name === 'invoice' ? '' : ` (a ${kind.name})`}: only a stamped invoice is replaced.`,
    );
  const { receiver, ...body } = copyBody(source);
  return createDraft(em, deps, scope, kind, {
    ...body,
    ...(source.customer_id && source.kind !== 'global' ? { customerId: source.customer_id } : { receiver }),
    relatedDocuments: [{ tipoRelacion: '04', uuids: [source.uuid] }],
  });
}
