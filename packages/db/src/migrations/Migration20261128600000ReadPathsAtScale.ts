import { Migration } from '@mikro-orm/migrations';

/**
 * Read paths at a million documents (issue 41). The new indexes on the large tables are built concurrently after
 * the migrations (`concurrent-indexes.ts`); here what must be transactional: the trigram extension they use, the
 * monthly spend next to the monthly timbres (so usage reads 12 rows, not a year of ledger), the reference index
 * that led with a column no query constrains (replaced by `transactions_reference_id_idx`), and the unique index on
 * the ledger's sequence, which the newest page walked instead of the account's own index.
 */
export class Migration20261128600000ReadPathsAtScale extends Migration {
  override async up(): Promise<void> {
    this.addSql('create extension if not exists pg_trgm;');
    this.addSql('alter table monthly_usage add column spent_centavos bigint not null default 0;');
    this.addSql(`
      update monthly_usage u set spent_centavos = l.spent
        from (select account_id, livemode, date_trunc('month', created_at at time zone 'America/Mexico_City')::date as month,
                     -sum(delta_centavos) as spent
                from transactions where type in ('consume', 'refund') group by 1, 2, 3) l
       where l.account_id = u.account_id and l.livemode = u.livemode and l.month = u.month;
    `);
    this.addSql('drop index transactions_reference_idx;');
    // seq is an identity column (`generated always`: no insert chooses it), so its values are unique without an
    // index; that index only served the planner a trap: the ledger's newest page walked it backwards, discarding
    // every newer entry of other accounts (101,540 rows, 151 ms at 1M) instead of using transactions_scope_idx.
    this.addSql('alter table transactions drop constraint transactions_seq_key;');
  }
}
