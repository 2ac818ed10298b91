import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { loadDraft } from './draft-row';
import { deleteDraftRow } from '../documents/repository';

/** Deletes a draft (nothing fiscal refers to it: no folio, no reservation, no event); a non-draft is 409. */
export async function deleteDraft(em: EntityManager, scope: Scope, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    await loadDraft(tx, scope, id, { lock: true });
    await deleteDraftRow(tx, id);
  });
}
