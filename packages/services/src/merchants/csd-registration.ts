import type { PacClient } from '@cfdi/pac';
import { ServiceUnavailableError } from '../errors';
import { csdError } from './csd-validation';

/**
 * Registers the issuer and its certificate with the PAC. Finkok-style registration is per RFC: `add` fails
 * when the RFC already exists (another merchant of the platform, or a previous certificate), and `edit`
 * then activates it with the new certificate. Both are idempotent, so a lost answer is simply retried by the
 * client; nothing is stored until this succeeds.
 */
export async function registerCsdWithPac(
  pac: PacClient,
  rfc: string,
  certificateDer: Buffer,
  correlationId: string,
): Promise<void> {
  const ctx = { correlationId };
  const added = await pac.registerCsd({ rfc, certificateDer }, ctx);
  if (added.outcome === 'ok') return;
  if (added.outcome === 'unavailable') throw unavailable(added.detail);
  const edited = await pac.updateCsd({ rfc, status: 'A', certificateDer }, ctx);
  if (edited.outcome === 'ok') return;
  if (edited.outcome === 'unavailable') throw unavailable(edited.detail);
  throw csdError(
    'csd_pac_rejected',
    '/cer',
    `The PAC refused to register the certificate: ${edited.message || added.message}`,
  );
}

function unavailable(detail: string): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'pac_unavailable',
    'The PAC could not register the certificate right now; nothing was saved. Retry the upload later.',
    { cause: new Error(detail) },
  );
}
