'use server';

import { redirect } from 'next/navigation';
import { filesCannotRender, innermostCause, loadDocumentById, NotFoundError } from '@cfdi/services';
import { regenerateFiles } from '@cfdi/temporal-contract/client';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';

/** `cfdi files regenerate <id>` from the console: the same check and the same files workflow, waited for. */
export async function renderAgain(form: FormData): Promise<void> {
  const documentId = String(form.get('documentId') ?? '');
  const outcome = await audited<{ refused: string } | { done: string }>('files.render_again', async () => {
    const row = await loadDocumentById(await em(), documentId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!row) return { result: { refused: `Unknown document ${documentId}.` }, audit: null };
    const problem = filesCannotRender(row);
    if (problem) return { result: { refused: problem }, audit: null };
    const { config, temporal } = await platform();
    const audit = {
      action: 'files.render_again',
      target: row.id,
      accountId: row.account_id,
      livemode: row.livemode,
    };
    try {
      await regenerateFiles(temporal, row.id, config.temporal.taskQueue);
      return { result: { done: row.id }, audit };
    } catch (error) {
      const refused = `${row.id}: files still failed: ${innermostCause(error).message}`;
      return { result: { refused }, audit: { ...audit, detail: { error: refused } } };
    }
  });
  redirect(
    `/failed-files?${'done' in outcome ? `done=${encodeURIComponent(outcome.done)}` : `refused=${encodeURIComponent(outcome.refused)}`}`,
  );
}
