import { Migration } from '@mikro-orm/migrations';

/**
 * Low-balance warning: a threshold per balance (account and mode) and the address to warn, a flag that says the
 * balance is below it (so one message goes per crossing, not per debit), and the messages to send.
 */
export class Migration20261128910000LowBalanceAlerts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table balances add column low_balance_centavos bigint check (low_balance_centavos >= 0);
      alter table balances add column low_balance_email text;
      alter table balances add column low_balance_alerted boolean not null default false;
      create table balance_alerts (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        balance_centavos bigint not null,
        threshold_centavos bigint not null,
        recipients text[] not null,
        status text not null check (status in ('queued', 'sent', 'failed')),
        smtp_response text,
        created_at timestamptz(3) not null default now(),
        sent_at timestamptz(3)
      );
      create index balance_alerts_queued_idx on balance_alerts (id) where status = 'queued';
    `);
  }
}
