import { loadMerchantLogo } from '@cfdi/services';
import { em, platform } from '../../../../../src/platform';
import { fileRoute, privateFile } from '../../../../../src/binary-route';

export const dynamic = 'force-dynamic';

/** The merchant's stored logo, for its settings page (another account's merchant has none here: 404). */
export const GET = fileRoute('merchants.settings', async (scope, id) => {
  if (scope.merchantIds && !scope.merchantIds.includes(id))
    return new Response('Not found.', { status: 404 });
  const logo = await loadMerchantLogo(await em(), (await platform()).storage, scope, id);
  if (!logo) return new Response('Not found.', { status: 404 });
  return privateFile(logo.bytes, logo.contentType);
});
