import { Migration } from '@mikro-orm/migrations';

/**
 * Incremental ledger audits: each balance's checkpoint is where its last clean audit ended (the seq of the last
 * entry read, the balanceAfter it left and the Σ of deltas up to it), so the next audit reads only newer entries.
 * `ledger_audits.mode` tells a full audit from an incremental one (the schedule runs a full one daily).
 */
export class Migration20261128800000LedgerAuditCheckpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table ledger_audit_checkpoints (
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        seq bigint not null,
        balance_after_centavos bigint not null,
        sum_centavos bigint not null,
        checked_at timestamptz(3) not null default now(),
        primary key (account_id, livemode)
      );
      alter table ledger_audits add column mode text not null default 'full' check (mode in ('full', 'incremental'));
      create index ledger_audits_mode_idx on ledger_audits (mode, created_at desc);
    `);
  }
}
