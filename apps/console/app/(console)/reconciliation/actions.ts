'use server';

import { redirect } from 'next/navigation';
import { loadDocumentById, reconciliationRefusal } from '@cfdi/services';
import { signalReconciliation } from '@cfdi/workflows/client';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';

const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const DOCUMENT_ID = /^(inv|pay|nom)_[0-9A-Z]+$/;

/**
 * `cfdi reconcile resolve` from the console: the same checks (reconciliationRefusal) and the same workflow signal,
 * recorded by the workflow with the operator's e-mail and note, and in the audit log.
 */
export async function resolveReconciliation(form: FormData): Promise<void> {
  const documentId = String(form.get('documentId') ?? '');
  const stamped = form.get('decision') === 'stamped';
  const uuid = String(form.get('uuid') ?? '').trim().toUpperCase();
  const note = String(form.get('note') ?? '').trim().slice(0, 500);
  const back = (key: 'refused' | 'done', message: string) => redirect(`/reconciliation?${key}=${encodeURIComponent(message)}`);
  if (!DOCUMENT_ID.test(documentId)) back('refused', 'Unknown document.');
  if (form.get('decision') !== 'stamped' && form.get('decision') !== 'not_stamped') back('refused', 'Choose stamped or not stamped.');
  if (stamped && !UUID.test(uuid)) back('refused', 'A "stamped" decision needs the stamp\'s UUID (8-4-4-4-12 hex).');
  if (!stamped && uuid) back('refused', 'The UUID goes with "stamped" only.');
  if (!note) back('refused', 'Say why (the note is kept with the decision).');
  const refusal = await audited(['admin', 'operator'], async (session) => {
    const { config, pac, temporal } = await platform();
    const decision = { stamped, ...(stamped ? { uuid } : {}) };
    const refused = await reconciliationRefusal(await em(), pac, documentId, decision);
    if (refused) return { result: refused.message, audit: null };
    await signalReconciliation(temporal, { documentId, reconciliation: config.reconciliation }, { ...decision, resolvedBy: session.user.email, note }, config.temporal.taskQueue);
    const row = await loadDocumentById(await em(), documentId);
    return {
      result: null,
      audit: { action: 'reconciliation.resolve', target: documentId, accountId: row.account_id, livemode: row.livemode, detail: { stamped, uuid: uuid || null, note } },
    };
  });
  if (refusal) back('refused', refusal);
  back('done', documentId);
}
