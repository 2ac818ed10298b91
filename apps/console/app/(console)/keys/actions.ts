'use server';

import { redirect } from 'next/navigation';
import { createApiKey, ForbiddenError, NotFoundError, revokeApiKey, ValidationError } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** The secret is handed back in this action's result only (never stored, never in a URL or the audit log). */
export async function createKey(
  _previous: unknown,
  form: FormData,
): Promise<{ secret?: string; error?: string }> {
  return audited<{ secret?: string; error?: string }>('api_keys.manage', async (session) => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: { error: 'No account.' }, audit: null };
    const merchantIds = String(form.get('merchants') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const note = String(form.get('note') ?? '');
    const { user } = session;
    let created: Awaited<ReturnType<typeof createApiKey>>;
    try {
      // The services keep the key within the account's merchants and this user's mode and merchant limits.
      created = await createApiKey(await em(), {
        accountId: scope.accountId,
        livemode: scope.livemode,
        merchantIds,
        note,
        maker: { livemode: user.livemode, merchantIds: user.merchantIds },
      });
    } catch (error) {
      if (
        error instanceof NotFoundError ||
        error instanceof ForbiddenError ||
        error instanceof ValidationError
      )
        return { result: { error: error.message }, audit: null };
      throw error;
    }
    const { key, secret } = created;
    return {
      result: { secret },
      audit: {
        action: 'api_key.create',
        target: key.id,
        accountId: scope.accountId,
        livemode: scope.livemode,
        detail: { merchantIds: key.merchantIds, note: key.note },
      },
    };
  });
}

export async function revokeKey(form: FormData): Promise<void> {
  await audited('api_keys.manage', async () => {
    const { scope } = await currentWorkspace();
    const keyId = String(form.get('keyId') ?? '');
    // Only the confirmation's button says `confirmed`: a bare "revoke" post changes nothing.
    if (!scope || !/^key_[0-9A-Z]+$/.test(keyId) || form.get('confirmed') !== 'yes')
      return { result: null, audit: null };
    const key = await revokeApiKey(await em(), scope.accountId, keyId);
    return {
      result: null,
      audit: { action: 'api_key.revoke', target: key.id, accountId: scope.accountId, livemode: key.livemode },
    };
  });
  redirect('/keys');
}
