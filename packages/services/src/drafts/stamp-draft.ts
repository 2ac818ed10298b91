import { storePrepared } from '../documents/prepared-document';
import { loadDraft, preparerOf, type DraftOperation } from './draft-row';

/**
 * Turns a draft into a document `stamping` with its id kept, in one transaction under the draft's row lock: its
 * request prepared again (today's merchant, CSD and catalogs) and stored exactly as a create stores it (folio, one
 * timbre reserved, the key bound). A concurrent stamp waits for the lock and then finds no draft (409); a 402 or a
 * 400 rolls back and leaves the draft as it was.
 */
export const stampDraft: DraftOperation = (em, deps, scope, id, idempotencyKey) =>
  em.transactional(async (tx) => {
    const { row, kind } = await loadDraft(tx, scope, id, { lock: true });
    const prepared = await preparerOf(kind)(tx, deps, scope, row.request as never);
    return storePrepared(tx, deps.config, scope, prepared, { idempotencyKey, draftId: id });
  });
