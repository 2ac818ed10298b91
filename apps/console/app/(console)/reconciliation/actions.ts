'use server';

import { redirect } from 'next/navigation';
import {
  checkReconciliationDecision,
  NotFoundError,
  ValidationError,
  type CheckedReconciliation,
} from '@cfdi/services';
import { signalReconciliation } from '@cfdi/temporal-contract/client';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';

/**
 * `cfdi reconcile resolve` from the console: the same rules and checks (checkReconciliationDecision) and the same
 * workflow signal, recorded by the workflow with the operator's e-mail and note, and in the audit log.
 */
export async function resolveReconciliation(form: FormData): Promise<void> {
  const documentId = String(form.get('documentId') ?? '');
  const refusal = await audited('reconciliation.resolve', async (session) => {
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
      if (error instanceof NotFoundError) return { result: 'Unknown document.', audit: null };
      if (error instanceof ValidationError) return { result: error.message, audit: null };
      throw error;
    }
    if (!checked.ok) return { result: checked.refusal.message, audit: null };
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
  const [key, message] = refusal ? ['refused', refusal] : ['done', documentId];
  redirect(`/reconciliation?${key}=${encodeURIComponent(message)}`);
}
