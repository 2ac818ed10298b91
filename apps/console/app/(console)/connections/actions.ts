'use server';

import { redirect } from 'next/navigation';
import { revokeConnectedClient } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em } from '../../../src/platform';

/** Disconnects one of the signed-in user's own applications (another user's grant is a 404 in the services). */
export async function disconnectClient(form: FormData): Promise<void> {
  await audited('oauth_connections.own', async (session) => {
    const grantId = String(form.get('grantId') ?? '');
    if (!/^ogr_[0-9A-Z]+$/.test(grantId)) return { result: null, audit: null };
    const revoked = await revokeConnectedClient(await em(), session.user.id, grantId);
    return {
      result: null,
      audit: {
        action: 'oauth_grant.revoke',
        target: revoked.grantId,
        accountId: session.user.accountId,
        livemode: revoked.livemode,
        detail: { clientId: revoked.clientId },
      },
    };
  });
  redirect('/connections');
}
