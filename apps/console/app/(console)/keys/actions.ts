'use server';

import { redirect } from 'next/navigation';
import { createApiKey, revokeApiKey, unknownMerchantIds, ValidationError } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** The secret is handed back in this action's result only (never stored, never in a URL or the audit log). */
export async function createKey(_previous: unknown, form: FormData): Promise<{ secret?: string; error?: string }> {
  return audited<{ secret?: string; error?: string }>(['admin', 'operator', 'finance'], async () => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: { error: 'No account.' }, audit: null };
    const merchantIds = String(form.get('merchants') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    // A user limited to some merchants can only make keys limited to (some of) them.
    const allowed = scope.merchantIds;
    if (allowed && (!merchantIds.length || merchantIds.some((id) => !allowed.includes(id)))) {
      return { result: { error: ValidationError.field('/merchants', `must be among ${allowed.join(', ')}`).message }, audit: null };
    }
    const unknown = await unknownMerchantIds(await em(), scope, merchantIds);
    if (unknown.length) return { result: { error: `Unknown merchants: ${unknown.join(', ')}` }, audit: null };
    const note = String(form.get('note') ?? '').trim().slice(0, 200) || null;
    const { key, secret } = await createApiKey(await em(), { accountId: scope.accountId, livemode: scope.livemode, merchantIds, note });
    return {
      result: { secret },
      audit: { action: 'api_key.create', target: key.id, accountId: scope.accountId, livemode: scope.livemode, detail: { merchantIds: key.merchantIds, note } },
    };
  });
}

export async function revokeKey(form: FormData): Promise<void> {
  await audited(['admin', 'operator', 'finance'], async () => {
    const { scope } = await currentWorkspace();
    const keyId = String(form.get('keyId') ?? '');
    if (!scope || !/^key_[0-9A-Z]+$/.test(keyId)) return { result: null, audit: null };
    const key = await revokeApiKey(await em(), scope.accountId, keyId);
    return { result: null, audit: { action: 'api_key.revoke', target: key.id, accountId: scope.accountId, livemode: key.livemode } };
  });
  redirect('/keys');
}
