'use server';

import { redirect } from 'next/navigation';
import {
  checkReconciliationDecision,
  NotFoundError,
  RECONCILIATION_NOTE_MAX,
  ValidationError,
  type CheckedReconciliation,
} from '@cfdi/services';
import type { RefusalCode } from '../../../src/i18n/list-messages';
import { signalReconciliation } from '@cfdi/temporal-contract/client';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';

/**
 * `cfdi reconcile resolve` from the console: the same rules and checks (checkReconciliationDecision) and the same
 * workflow signal, recorded by the workflow with the operator's e-mail and note, and in the audit log.
 */
export async function resolveReconciliation(form: FormData): Promise<void> {
  const documentId = String(form.get('documentId') ?? '');
  const refusal = await audited<RefusalCode | null>('reconciliation.resolve', async (session) => {
    const { config, pac, temporal } = await platform();
    let checked: CheckedReconciliation;
    try {
      checked = await checkReconciliationDecision(await em(), pac, documentId, {
        decision: form.get('decision'),
        uuid: form.get('uuid'),
        note: form.get('note'),
        resolvedBy: session.user.email,
      });
    } catch (error) {
      if (error instanceof NotFoundError) return { result: 'unknown_document', audit: null };
      if (error instanceof ValidationError) return { result: inputRefusal(error, form), audit: null };
      throw error;
    }
    if (!checked.ok) return { result: checked.refusal.reason, audit: null };
    const { resolution, document } = checked;
    await signalReconciliation(
      temporal,
      { documentId, reconciliation: config.reconciliation },
      resolution,
      config.temporal.taskQueue,
    );
    return {
      result: null,
      audit: {
        action: 'reconciliation.resolve',
        target: documentId,
        accountId: document.account_id,
        livemode: document.livemode,
        detail: { stamped: resolution.stamped, uuid: resolution.uuid ?? null, note: resolution.note },
      },
    };
  });
  if (!refusal) redirect(`/reconciliation?done=${encodeURIComponent(documentId)}`);
  // The refusal as a code the page words in its language, and what was typed, which the page puts back in the form.
  const kept = new URLSearchParams({ refused: refusal, doc: documentId });
  for (const name of ['decision', 'uuid', 'note'])
    kept.set(name, String(form.get(name) ?? '').slice(0, RECONCILIATION_NOTE_MAX));
  redirect(`/reconciliation?${kept}`);
}

/** Which input rule the decision broke (parseReconciliationDecision names the field), as a RefusalCode. */
function inputRefusal(error: ValidationError, form: FormData): RefusalCode {
  const path = error.extra.errors?.[0]?.path;
  const stamped = form.get('decision') === 'stamped';
  const uuid = String(form.get('uuid') ?? '').trim();
  if (path === '/uuid') return !stamped ? 'uuid_without_stamp' : uuid ? 'uuid_format' : 'uuid_missing';
  if (path === '/note') return String(form.get('note') ?? '').trim() ? 'note_too_long' : 'note_missing';
  return 'decision';
}
