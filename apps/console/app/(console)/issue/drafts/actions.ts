'use server';

import { redirect } from 'next/navigation';
import { AppError, deleteDraft, stampDraft } from '@cfdi/services';
import { audited } from '../../../../src/audited-action';
import { stampingDeps, startStampingOf } from '../../../../src/issuing';
import { em } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';

/**
 * Stamps the draft as the API's POST …/stamp does: the services store it `stamping` with its folio and timbre, then
 * the stamp workflow runs, waited for as long as the API waits; the document page shows how it ended. A refusal
 * (no balance, a field the catalogs changed under it) leaves the draft as it was and is shown on its page.
 */
export async function stampDraftAction(form: FormData): Promise<void> {
  const id = String(form.get('id') ?? '');
  const refusal = await audited<string | null>('documents.issue', async () => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: 'No account.', audit: null };
    let row;
    try {
      row = await stampDraft(await em(), await stampingDeps(), scope, id);
    } catch (error) {
      if (error instanceof AppError) return { result: error.message, audit: null };
      throw error;
    }
    await startStampingOf(row.id);
    return {
      result: null,
      audit: {
        action: 'document.stamp',
        target: row.id,
        accountId: scope.accountId,
        livemode: scope.livemode,
        detail: { folio: row.folio, total: row.total },
      },
    };
  });
  redirect(refusal ? `/issue/drafts/${id}?error=${encodeURIComponent(refusal)}` : `/documents/${id}`);
}

export async function deleteDraftAction(form: FormData): Promise<void> {
  const id = String(form.get('id') ?? '');
  await audited('documents.issue', async () => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: null, audit: null };
    await deleteDraft(await em(), scope, id);
    return {
      result: null,
      audit: {
        action: 'document.draft_delete',
        target: id,
        accountId: scope.accountId,
        livemode: scope.livemode,
      },
    };
  });
  redirect('/issue');
}
