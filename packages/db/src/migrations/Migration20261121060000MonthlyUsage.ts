import { Migration } from '@mikro-orm/migrations';

/**
 * Net timbres per (account, mode, calendar month in Mexico City), kept by the ledger in the same statement as each
 * consume and refund. The monthly cap and the volume price read one row instead of summing a month of entries on
 * every stamp. Backfilled from the ledger; the ledger audit checks the two agree.
 */
export class Migration20261121060000MonthlyUsage extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table monthly_usage (
        account_id text not null references accounts(id),
        livemode boolean not null,
        month date not null,
        timbres integer not null,
        primary key (account_id, livemode, month)
      );
    `);
    this.addSql(`
      insert into monthly_usage (account_id, livemode, month, timbres)
      select account_id, livemode, date_trunc('month', created_at at time zone 'America/Mexico_City')::date,
             sum(case type when 'consume' then 1 else -1 end)
        from transactions where type in ('consume', 'refund')
       group by 1, 2, 3;
    `);
  }
}
