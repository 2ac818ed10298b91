import type { EntityManager } from '@cfdi/db';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import {
  emitEvent,
  kindOf,
  loadDocument,
  type DocumentRow,
  type DocumentType,
  type DocumentWithMerchantRefs,
} from '../documents';
import { selectDocumentWithAutoEmail } from '../documents/repository';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { listAnswer, type PageRequest } from '../pagination';
import {
  deliveryKeysetPage,
  insertDeliveryRow,
  recordDeliveryAttempt,
  selectDelivery,
  selectDeliveryOf,
  selectQueuedDeliveryIds,
  type EmailDeliveryRow,
  type EmailTrigger,
} from './email-delivery-repository';
import { addressErrors, MAX_RECIPIENTS } from './addresses';
import { customerContact, recipientsFor, type EmailLocale } from './recipients';

/** What asked for a message: an API or MCP request, an operator's resend, or the merchant's automatic sending. */
export type { EmailDeliveryRow, EmailStatus, EmailTrigger } from './email-delivery-repository';

export function toEmailDeliveryView(row: EmailDeliveryRow) {
  return {
    id: row.id,
    object: 'email_delivery' as const,
    livemode: row.livemode,
    documentId: row.document_id,
    merchantId: row.merchant_id,
    trigger: row.trigger,
    to: row.recipients,
    locale: row.locale,
    status: row.status,
    attempts: row.attempts,
    smtpResponse: row.smtp_response,
    sentAt: isoTimestampOrNull(row.sent_at),
    failedAt: isoTimestampOrNull(row.failed_at),
    createdAt: isoTimestamp(row.created_at),
  };
}

export type EmailDeliveryView = ReturnType<typeof toEmailDeliveryView>;

/** Documents that have a CFDI to send: stamped, being cancelled, or cancelled (whose message carries the acuse). */
const SENDABLE = ['stamped', 'cancel_pending', 'cancelled'];

/**
 * The document of an e-mail route: 404 outside the scope, and for a key restricted to other merchants too (it must
 * not learn that the id exists), like an unknown id.
 */
async function documentForEmail(em: EntityManager, scope: Scope, type: DocumentType | undefined, id: string) {
  const row = await loadDocument(em, scope, id, type);
  if (scope.merchantIds && !scope.merchantIds.includes(row.merchant_id))
    throw new NotFoundError(type ?? 'document', id);
  return row;
}

export interface EmailRequest {
  to?: string[];
  locale?: EmailLocale;
}

/**
 * Records a message asked for through the API or MCP (status queued; the caller starts its workflow). 409 for a
 * document without a stamped CFDI; 400 with field paths for bad or missing recipients; 503 when no SMTP server is set.
 */
export async function requestDocumentEmail(
  em: EntityManager,
  scope: Scope,
  type: DocumentType | undefined,
  id: string,
  request: EmailRequest,
  sending: { configured: boolean },
): Promise<EmailDeliveryRow> {
  const errors = addressErrors(request.to ?? [], '/to');
  if (errors.length)
    throw new ValidationError(errors.map((e) => `${e.path} ${e.message}`).join('; '), errors);
  const document = await documentForEmail(em, scope, type, id);
  if (!SENDABLE.includes(document.status))
    throw new ConflictError(
      'document_not_stamped',
      `The ${document.type} is ${document.status}: only a stamped or cancelled document can be e-mailed.`,
    );
  if (!kindOf(document).pdf)
    throw new ConflictError(
      'document_files_unavailable',
      `A ${document.type} has no PDF to send: its stamped XML is its only file (download it from files.xmlUrl).`,
    );
  if (!document.stamped_xml)
    throw new ConflictError(
      'document_files_unavailable',
      `The ${document.type} has no stamped XML here (recorded from an operator's decision): there is nothing to attach.`,
    );
  const recipients = await recipientsFor(em, document, request);
  if (!recipients.to.length)
    throw ValidationError.field('/to', 'is required: this document has no other recipient');
  if (recipients.to.length > MAX_RECIPIENTS)
    throw ValidationError.field(
      '/to',
      `adds up to ${recipients.to.length} recipients with the merchant's copy addresses; the limit is ${MAX_RECIPIENTS}`,
    );
  // After the checks of the request and its document: an unknown id is a 404 whether or not e-mail is set up.
  if (!sending.configured)
    throw new ServiceUnavailableError(
      'email_unavailable',
      'E-mail is not configured on this server (SMTP_URL); nothing was sent.',
    );
  return insertDelivery(em, document, 'request', recipients.to, recipients.locale);
}

async function insertDelivery(
  em: EntityManager,
  document: Pick<DocumentRow, 'id' | 'account_id' | 'livemode' | 'merchant_id'>,
  trigger: EmailTrigger,
  recipients: string[],
  locale: EmailLocale,
): Promise<EmailDeliveryRow> {
  const row = await insertDeliveryRow(em, {
    account_id: document.account_id,
    livemode: document.livemode,
    document_id: document.id,
    merchant_id: document.merchant_id,
    trigger,
    recipients,
    locale,
  });
  // The automatic message of this document and trigger exists already: a retried step finds it.
  return row ?? (await selectDeliveryOf(em, document.id, trigger))!;
}

/**
 * Whether a stamped document read with its merchant's references can have an automatic message (a kind with a PDF,
 * the customer's or else the merchant's setting on): when not, `queueAutomaticEmail` would return null, and the stamp
 * workflow skips that step. The recipients are left to `queueAutomaticEmail`.
 */
export function automaticEmailPossible(row: DocumentWithMerchantRefs): boolean {
  return row.merchant.auto_email && kindOf(row).pdf;
}

/**
 * The automatic message after a stamp or a cancellation (the customer's setting, else the merchant's), once per document and trigger however often it
 * is asked (a retried activity, a replayed workflow): the existing row comes back. Null when the merchant does not
 * send automatically or the document has nobody to send to.
 */
export async function queueAutomaticEmail(
  em: EntityManager,
  documentId: string,
  trigger: 'stamped' | 'cancelled',
): Promise<EmailDeliveryRow | null> {
  const document = await selectDocumentWithAutoEmail(em, documentId);
  // A kind without a PDF (a withholding certificate) is not e-mailed: the message is its PDF and XML.
  if (!document?.stamped_xml || !kindOf(document).pdf) return null;
  // The customer's setting, when it has one, overrides the merchant's.
  const customer = await customerContact(em, document);
  if (!(customer?.auto_email ?? document.auto_email)) return null;
  const recipients = await recipientsFor(em, document);
  if (!recipients.to.length) return null;
  return insertDelivery(em, document, trigger, recipients.to.slice(0, MAX_RECIPIENTS), recipients.locale);
}

/**
 * Deliveries recorded and still queued after `olderThanSeconds`, oldest first: normally their workflow runs (and
 * retries); when the API died between recording one and starting its workflow, nothing else would ever send it.
 */
export async function queuedEmailDeliveries(
  em: EntityManager,
  olderThanSeconds: number,
  limit: number,
): Promise<string[]> {
  return selectQueuedDeliveryIds(em, olderThanSeconds, limit);
}

/** An operator's resend (`cfdi emails resend`): a new message to the same recipients, whatever became of the first. */
export async function resendEmail(em: EntityManager, deliveryId: string): Promise<EmailDeliveryRow> {
  const original = await loadEmailDelivery(em, deliveryId);
  return insertDelivery(
    em,
    {
      id: original.document_id,
      account_id: original.account_id,
      livemode: original.livemode,
      merchant_id: original.merchant_id,
    },
    'resend',
    original.recipients,
    original.locale,
  );
}

/** By id alone: for the worker and the CLI, which act for whoever asked. */
export async function loadEmailDelivery(em: EntityManager, id: string): Promise<EmailDeliveryRow> {
  const row = await selectDelivery(em, id);
  if (!row) throw new NotFoundError('email delivery', id);
  return row;
}

/** `GET /v1/{invoices|payments|nominas}/{id}/emails`: the document's messages, newest first. */
export async function listDocumentEmails(
  em: EntityManager,
  scope: Scope,
  type: DocumentType,
  id: string,
  page: PageRequest,
) {
  await documentForEmail(em, scope, type, id);
  const rows = await deliveryKeysetPage(em, scope, id, page);
  return listAnswer(rows, toEmailDeliveryView);
}

/**
 * One attempt's outcome: `sent` (with the server's 250 answer) or `failed` for good end the delivery and emit
 * `email.sent` / `email.failed` in the same transaction; `retry` counts the attempt and keeps the answer. Only a
 * queued delivery changes, so a repeated recording (a retried activity) changes nothing.
 */
export async function recordEmailAttempt(
  em: EntityManager,
  deliveryId: string,
  outcome: 'sent' | 'failed' | 'retry',
  smtpResponse: string,
): Promise<EmailDeliveryRow> {
  return em.transactional(async (tx) => {
    const row = await recordDeliveryAttempt(tx, deliveryId, outcome, smtpResponse.slice(0, 2000));
    if (!row) return loadEmailDelivery(tx, deliveryId);
    if (outcome !== 'retry')
      await emitEvent(
        tx,
        { accountId: row.account_id, livemode: row.livemode },
        outcome === 'sent' ? 'email.sent' : 'email.failed',
        toEmailDeliveryView(row),
      );
    return row;
  });
}
