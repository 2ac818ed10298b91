'use server';

import { redirect } from 'next/navigation';
import { filesCannotRender, innermostCause, loadDocumentById, NotFoundError } from '@cfdi/services';
import { regenerateFiles } from '@cfdi/temporal-contract/client';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';
import type { RenderRefusal } from '../../../src/i18n/list-messages';

/** `cfdi files regenerate <id>` from the console: the same check and the same files workflow, waited for. */
export async function renderAgain(form: FormData): Promise<void> {
  const documentId = String(form.get('documentId') ?? '');
  // A refusal goes back as a code the page words in its language (the cause itself is in the audit log).
  const outcome = await audited<{ refused: RenderRefusal } | { done: string }>(
    'files.render_again',
    async () => {
      const row = await loadDocumentById(await em(), documentId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      if (!row) return { result: { refused: 'unknown_document' }, audit: null };
      if (filesCannotRender(row)) return { result: { refused: 'nothing_to_render' }, audit: null };
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
        const cause = `${row.id}: files still failed: ${innermostCause(error).message}`;
        return { result: { refused: 'still_failed' }, audit: { ...audit, detail: { error: cause } } };
      }
    },
  );
  redirect(
    `/failed-files?${'done' in outcome ? `done=${encodeURIComponent(outcome.done)}` : `refused=${outcome.refused}&doc=${encodeURIComponent(documentId)}`}`,
  );
}
