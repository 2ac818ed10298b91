import { Migration } from '@mikro-orm/migrations';

/** Accounts, API keys, balances and the ledger. Ids use the C collation so they sort by creation time. */
export class Migration20261121000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table accounts (
        id text collate "C" primary key,
        name text not null,
        rate_limit_per_minute integer check (rate_limit_per_minute > 0),
        monthly_cap integer check (monthly_cap >= 0),
        created_at timestamptz(3) not null default now()
      );
      create table api_keys (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        secret_hash text not null unique,
        display_prefix text not null,
        merchant_ids text[],
        note text,
        revoked_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create index api_keys_account_idx on api_keys (account_id, id);
      create table balances (
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        balance_centavos bigint not null check (balance_centavos >= 0),
        updated_at timestamptz(3) not null default now(),
        primary key (account_id, livemode)
      );
      create table transactions (
        id text collate "C" primary key,
        -- apply order: assigned under the balance row lock, so it orders entries exactly as they changed the balance
        seq bigint generated always as identity unique,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        type text not null check (type in ('purchase','consume','refund','recharge','adjustment','seed')),
        delta_centavos bigint not null,
        balance_after_centavos bigint not null check (balance_after_centavos >= 0),
        reference_type text,
        reference_id text,
        note text,
        -- a refund names the consume it returns; unique so no consume is ever refunded twice
        reversal_of text collate "C" unique references transactions(id),
        created_at timestamptz(3) not null default now()
      );
      create index transactions_scope_idx on transactions (account_id, livemode, seq desc);
      create index transactions_reference_idx on transactions (reference_type, reference_id);
    `);
  }
}
