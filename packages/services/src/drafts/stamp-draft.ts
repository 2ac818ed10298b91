import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import type { DocumentRow } from '../documents/document-row';
import { storePrepared } from '../documents/prepared-document';
import type { StampingDeps } from '../documents/stamping-deps';
import { loadDraft, preparerOf } from './draft-row';

/**
 * Turns a draft into a document `stamping` with its id kept, in one transaction under the draft's row lock: its
 * request prepared again (today's merchant, CSD and catalogs) and stored exactly as a create stores it (folio, one
 * timbre reserved, the key bound). A concurrent stamp waits for the lock and then finds no draft (409); a 402 or a
 * 400 rolls back and leaves the draft as it was.
 */
export async function stampDraft(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  id: string,
  idempotencyKey?: string,
): Promise<DocumentRow> {
  return em.transactional(async (tx) => {
    const { row, kind } = await loadDraft(tx, scope, id, { lock: true });
    const prepared = await preparerOf(kind)(tx, deps, scope, row.request as never);
    return storePrepared(tx, deps.config, scope, prepared, { idempotencyKey, draftId: id });
  });
}
