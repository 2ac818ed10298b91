import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { promoteDraft } from '../documents/repository';
import type { DocumentKind } from '../documents/kinds';
import type { StampingDeps } from '../documents/stamping-deps';
import { loadDraft, preparerOf } from './draft-row';
import { draftDocument } from './create-draft';

/**
 * Merge patch over a draft's create body (RFC 7386 at the top level): a field given replaces the stored one whole
 * (`items`, `receiver` included), a field given as null is removed, a field left out stays.
 */
export function mergeDraftPatch(
  stored: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...stored };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  return merged;
}

/**
 * Edits a draft under its row lock: the merged body is checked against the kind's create schema (`checkShape`, the
 * API's), then validated and totalled again as a create would be; a non-draft is 409 `not_a_draft`.
 */
export async function updateDraft(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  id: string,
  patch: Record<string, unknown>,
  checkShape: (kind: DocumentKind<never>, body: Record<string, unknown>) => void,
): Promise<DocumentRow> {
  return em.transactional(async (tx) => {
    const { row, kind } = await loadDraft(tx, scope, id, { lock: true });
    const body = mergeDraftPatch(row.request ?? {}, patch);
    checkShape(kind, body);
    const prepared = await preparerOf(kind)(tx, deps, scope, body as never);
    return promoteDraft(tx, draftDocument(prepared, id, body), 'draft');
  });
}
