import { Migration } from '@mikro-orm/migrations';

/**
 * E-mail delivery of stamped documents: one row per message sent (or being sent) with its recipients and outcome,
 * and the merchant's settings for sending on stamp and on cancellation.
 */
export class Migration20261128500000EmailDeliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table email_deliveries (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        document_id text collate "C" not null references documents(id),
        merchant_id text collate "C" not null,
        -- what asked for it: an API or MCP request, an operator's resend, or the merchant's automatic sending
        trigger text not null check (trigger in ('request', 'resend', 'stamped', 'cancelled')),
        recipients text[] not null,
        locale text not null check (locale in ('es', 'en')),
        status text not null check (status in ('queued', 'sent', 'failed')),
        attempts integer not null default 0,
        -- the SMTP server's last answer (the 250 of a send, or the error that failed it)
        smtp_response text,
        sent_at timestamptz(3),
        failed_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index email_deliveries_document_idx on email_deliveries (document_id, id desc);
      -- automatic sending happens once per document and trigger, however often the stamp or cancel step is retried
      create unique index email_deliveries_automatic_once on email_deliveries (document_id, trigger)
        where trigger in ('stamped', 'cancelled');

      alter table merchants add column auto_email boolean not null default false;
      alter table merchants add column email_copy_to text[] not null default '{}';
    `);
  }
}
