import { Migration } from '@mikro-orm/migrations';

/**
 * The automatic global invoice of receipts: the merchant's setting (on/off and the c_Periodicidad of its periods),
 * and one row per merchant and period naming the global invoice that covers it. The primary key is what makes a
 * period's global invoice exist once: a repeated or retried run finds the row and stamps nothing new. A row whose
 * document failed to stamp is pointed at the next attempt's document.
 */
export class Migration20261128810000GlobalInvoices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchants add column global_invoice_enabled boolean not null default false;
      alter table merchants add column global_invoice_periodicity text not null default '04'
        check (global_invoice_periodicity in ('01', '02', '03', '04', '05'));

      create table global_invoices (
        merchant_id text collate "C" not null references merchants(id),
        periodicidad text not null,
        period_start date not null,
        period_end date not null,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        document_id text collate "C" not null unique references documents(id),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        primary key (merchant_id, periodicidad, period_start)
      );
    `);
  }
}
