import { Migration } from '@mikro-orm/migrations';

/** Results of the periodic ledger audit, so /metrics and operators can see the last verdict. */
export class Migration20261121050000LedgerAudits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ledger_audits (
        id bigint generated always as identity primary key,
        balances_checked integer not null,
        violations integer not null,
        report jsonb not null,
        created_at timestamptz(3) not null default now()
      );
    `);
  }
}
