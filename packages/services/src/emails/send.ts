import type { EntityManager } from '@cfdi/db';
import type { FileStorage } from '@cfdi/storage';
import { createDocumentFileProducer, loadDocumentById, type FilesRenderer } from '../documents';
import { loadPrintableLogo } from '../merchants/logo';
import type { CancellableRow } from '../cancellations/cancellation-record';
import { loadEmailDelivery, recordEmailAttempt, type EmailDeliveryRow } from './deliveries';
import type { Mailer } from './mailer';
import { documentEmail } from './message';
import { selectMerchantLetterhead } from '../merchants/merchant-repository';

/** What sending a document's e-mail needs: its files (stored, or rendered now like a first download) and SMTP. */
export interface EmailSendingDeps {
  storage: Pick<FileStorage, 'get' | 'put'>;
  renderFiles: FilesRenderer;
  /** Null when SMTP_URL is not set: a queued message then waits, retried, for a configured worker. */
  mailer: Mailer | null;
}

/** A file the message needs is not there yet (a large document's PDF still rendering): the attempt is retried. */
export class EmailFilesNotReadyError extends Error {}

export interface EmailAttemptResult {
  status: EmailDeliveryRow['status'];
  /** The attempt failed temporarily and this was not the last one: the workflow tries again later. */
  retry: boolean;
}

/**
 * One attempt at sending a queued message: builds it from the document as it is now, sends it and records the
 * outcome. A delivery no longer queued (a retried activity after its recording) is not sent again. A temporary
 * refusal on the last attempt (`finalAttempt`) ends the delivery `failed`, as a permanent one always does.
 */
export async function attemptEmailDelivery(
  em: EntityManager,
  deps: EmailSendingDeps,
  deliveryId: string,
  finalAttempt: boolean,
): Promise<EmailAttemptResult> {
  const delivery = await loadEmailDelivery(em, deliveryId);
  if (delivery.status !== 'queued') return { status: delivery.status, retry: false };
  if (!deps.mailer) throw new Error('SMTP_URL is not set on this worker: the e-mail cannot be sent');
  const message = await buildMessage(em, deps, delivery);
  const answer = await deps.mailer.send(message);
  const outcome =
    answer.outcome === 'sent' ? 'sent' : answer.outcome === 'temporary' && !finalAttempt ? 'retry' : 'failed';
  const recorded = await recordEmailAttempt(em, deliveryId, outcome, answer.response);
  return { status: recorded.status, retry: outcome === 'retry' };
}

async function buildMessage(em: EntityManager, deps: EmailSendingDeps, delivery: EmailDeliveryRow) {
  const document = (await loadDocumentById(em, delivery.document_id)) as CancellableRow;
  const merchant = (await selectMerchantLetterhead(em, document.merchant_id))!;
  const scope = { accountId: document.account_id, livemode: document.livemode };
  const pdf = await documentPdf(em, deps, document);
  const acuseKey = document.status === 'cancelled' ? document.cancellation?.acuse?.xmlKey : undefined;
  const acuse = acuseKey ? ((await deps.storage.get(acuseKey))?.bytes ?? null) : null;
  if (acuseKey && !acuse) throw new EmailFilesNotReadyError(`the acuse of ${document.id} is not stored yet`);
  return documentEmail({
    deliveryId: delivery.id,
    to: delivery.recipients,
    locale: delivery.locale,
    document,
    merchant: { legalName: merchant.legal_name, rfc: merchant.rfc },
    logo: await loadPrintableLogo(em, deps.storage, scope, document.merchant_id, merchant.logo_key),
    pdf,
    acuse,
  });
}

/** The stored PDF, or rendered and stored now exactly as its first download would (see files-on-demand). */
async function documentPdf(
  em: EntityManager,
  deps: EmailSendingDeps,
  document: CancellableRow,
): Promise<Buffer> {
  const key = document.files?.pdf;
  if (!key) throw new EmailFilesNotReadyError(`the files of ${document.id} are not ready yet`);
  const stored = await deps.storage.get(key);
  if (stored) return stored.bytes;
  const producer = createDocumentFileProducer({
    storage: deps.storage,
    renderFiles: deps.renderFiles,
    onFailure: () => undefined,
  });
  const produced = await producer.produce(em, key);
  if (!produced) throw new EmailFilesNotReadyError(`the PDF of ${document.id} is not ready yet`);
  return produced.bytes;
}
