/**
 * The e-mail deliveries' SQL (`email_deliveries`), parameters bound by the driver. Services call these functions and
 * never write SQL on this table themselves.
 */
import { newId, type EntityManager } from '@cfdi/db';
import { Conditions, keysetPage, type Page, type PageRequest } from '../pagination';
import type { Scope } from '../scope';
import type { EmailLocale } from './recipients';
import { firstRow } from '../sql';

export type EmailTrigger = 'request' | 'resend' | 'stamped' | 'cancelled';
export type EmailStatus = 'queued' | 'sent' | 'failed';

export interface EmailDeliveryRow {
  id: string;
  account_id: string;
  livemode: boolean;
  document_id: string;
  merchant_id: string;
  trigger: EmailTrigger;
  recipients: string[];
  locale: EmailLocale;
  status: EmailStatus;
  attempts: number;
  smtp_response: string | null;
  sent_at: Date | string | null;
  failed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The delivery as the API lists it and as the `email.*` events carry it. */
/**
 * A queued delivery; undefined when it is the automatic message (`stamped`, `cancelled`) of a document that has one
 * already (at most one per document and trigger).
 */
export async function insertDeliveryRow(
  em: EntityManager,
  row: Pick<
    EmailDeliveryRow,
    'account_id' | 'livemode' | 'document_id' | 'merchant_id' | 'trigger' | 'recipients' | 'locale'
  >,
): Promise<EmailDeliveryRow | undefined> {
  return firstRow<EmailDeliveryRow>(
    em,
    `insert into email_deliveries (id, account_id, livemode, document_id, merchant_id, trigger, recipients, locale, status)
     values (?, ?, ?, ?, ?, ?, ?::text[], ?, 'queued')
     on conflict (document_id, trigger) where trigger in ('stamped', 'cancelled') do nothing returning *`,
    [
      newId('eml'),
      row.account_id,
      row.livemode,
      row.document_id,
      row.merchant_id,
      row.trigger,
      row.recipients,
      row.locale,
    ],
  );
}

export async function selectDeliveryOf(
  em: EntityManager,
  documentId: string,
  trigger: EmailTrigger,
): Promise<EmailDeliveryRow | undefined> {
  return firstRow<EmailDeliveryRow>(
    em,
    'select * from email_deliveries where document_id = ? and trigger = ?',
    [documentId, trigger],
  );
}

export async function selectDelivery(em: EntityManager, id: string): Promise<EmailDeliveryRow | undefined> {
  return firstRow<EmailDeliveryRow>(em, 'select * from email_deliveries where id = ?', [id]);
}

/** Deliveries still queued after `olderThanSeconds`, oldest first. */
export async function selectQueuedDeliveryIds(
  em: EntityManager,
  olderThanSeconds: number,
  limit: number,
): Promise<string[]> {
  const rows: { id: string }[] = await em.execute(
    `select id from email_deliveries where status = 'queued' and created_at < now() - make_interval(secs => ?)
      order by created_at, id limit ?`,
    [olderThanSeconds, limit],
  );
  return rows.map((row) => row.id);
}

/** The document's deliveries, newest first. */
export function deliveryKeysetPage(
  em: EntityManager,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  documentId: string,
  page: PageRequest,
): Promise<Page<EmailDeliveryRow>> {
  return keysetPage<EmailDeliveryRow>(
    em,
    {
      select: 'select * from email_deliveries',
      table: 'email_deliveries',
      scope,
      where: new Conditions().add('document_id = ?', documentId),
      cursorAlso: { document_id: documentId },
      noun: 'e-mail delivery',
    },
    page,
  );
}

/** Counts an attempt of a queued delivery and, unless `retry`, ends it; undefined when it is no longer queued. */
export async function recordDeliveryAttempt(
  em: EntityManager,
  deliveryId: string,
  outcome: 'sent' | 'failed' | 'retry',
  smtpResponse: string,
): Promise<EmailDeliveryRow | undefined> {
  return firstRow<EmailDeliveryRow>(
    em,
    `update email_deliveries set attempts = attempts + 1, smtp_response = ?, updated_at = now(),
            status = case when ? = 'retry' then status else ? end,
            sent_at = case when ? = 'sent' then now() end, failed_at = case when ? = 'failed' then now() end
      where id = ? and status = 'queued' returning *`,
    [smtpResponse, outcome, outcome, outcome, outcome, deliveryId],
  );
}

/** The latest 50 deliveries of a document, newest first, with when each last changed (a document's page). */
export function selectDocumentDeliveries(
  em: EntityManager,
  scope: Pick<Scope, 'accountId' | 'livemode'>,
  documentId: string,
): Promise<{ id: string; recipients: string[]; status: EmailStatus; trigger: string; at: string }[]> {
  return em.execute(
    `select id, recipients, status, trigger, coalesce(sent_at, failed_at, created_at)::text as at
         from email_deliveries where document_id = ? and account_id = ? and livemode = ?
        order by id desc limit 50`,
    [documentId, scope.accountId, scope.livemode],
  );
}
