import { Migration } from '@mikro-orm/migrations';

/**
 * Balance top-ups through Stripe: one Stripe customer per (account, mode) (live and test purchases use different
 * Stripe accounts), one `purchases` row per Checkout session, and at most one ledger `purchase` entry per purchase.
 */
export class Migration20261125600000Purchases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table stripe_customers (
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        customer_id text not null,
        created_at timestamptz(3) not null default now(),
        primary key (account_id, livemode)
      );
      create table purchases (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        status text not null check (status in ('pending', 'succeeded', 'failed')),
        -- what the buyer asked for; the credit is what Stripe's event says was paid
        amount_centavos bigint not null check (amount_centavos > 0),
        currency text not null default 'MXN',
        stripe_customer_id text not null,
        stripe_checkout_session_id text unique,
        credited_centavos bigint check (credited_centavos > 0),
        transaction_id text collate "C" unique references transactions(id),
        failure_reason text,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        check ((status = 'succeeded') = (transaction_id is not null))
      );
      create index purchases_scope_idx on purchases (account_id, livemode, id desc);
      -- the backstop of "credited exactly once": a second purchase entry for the same purchase cannot be written
      create unique index transactions_purchase_once_idx on transactions (reference_id) where type = 'purchase';
    `);
  }
}
