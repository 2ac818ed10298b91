import {
  consumeEmailQuota,
  listDocumentEmails,
  requestDocumentEmail,
  toEmailDeliveryView,
  type DocumentType,
  type EmailRequest,
  type Scope,
} from '@cfdi/services';
import { startEmailDelivery } from '@cfdi/temporal-contract/client';
import type { AppDeps } from '../deps';
import type { Answer } from './idempotent';

/**
 * `POST /v1/{invoices|payments|nominas}/{id}/email` and the send_document_email tool (`type` undefined: any kind):
 * records the message queued and starts its workflow; 202 with the delivery, which `GET …/emails` follows.
 */
export async function sendDocumentEmail(
  deps: AppDeps,
  scope: Scope,
  type: DocumentType | undefined,
  id: string,
  body: EmailRequest,
): Promise<Answer> {
  const { mail } = deps.config;
  await consumeEmailQuota(deps.redis, scope.accountId, mail.perMinute);
  const delivery = await requestDocumentEmail(deps.orm.em.fork(), scope, type, id, body, {
    configured: Boolean(mail.smtpUrl),
  });
  await startEmailDelivery(
    deps.temporal,
    { deliveryId: delivery.id, retry: mail.retry },
    deps.config.temporal.taskQueue,
  );
  return { status: 202, body: toEmailDeliveryView(delivery) };
}

/** `GET /v1/{invoices|payments|nominas}/{id}/emails`: the document's e-mails, newest first. */
export function listEmailsOf(
  deps: AppDeps,
  scope: Scope,
  type: DocumentType,
  id: string,
  query: { limit: number; starting_after?: string },
) {
  return listDocumentEmails(deps.orm.em.fork(), scope, type, id, {
    limit: query.limit,
    ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
  });
}
