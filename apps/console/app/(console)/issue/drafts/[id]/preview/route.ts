import { AppError, renderDraftPreview } from '@cfdi/services';
import { em, platform } from '../../../../../../src/platform';
import { fileRoute, privateFile } from '../../../../../../src/binary-route';

export const dynamic = 'force-dynamic';

/** The draft's PDF as its stamp would print it, marked "SIN VALIDEZ FISCAL", with no UUID, QR or seal. */
export const GET = fileRoute('documents.issue', async (scope, id) => {
  try {
    const pdf = await renderDraftPreview(await em(), (await platform()).storage, scope, id, new Date());
    return privateFile(pdf, 'application/pdf', `inline; filename="${id}-borrador.pdf"`);
  } catch (error) {
    // Another account's draft, or a document no longer a draft: the services' 404 or 409.
    if (error instanceof AppError) return new Response(error.message, { status: error.status });
    throw error;
  }
});
