import { Migration } from '@mikro-orm/migrations';

/**
 * Receipts (tickets a shop hands out without stamping anything): each has a short unguessable `key` the customer
 * types in the self-invoicing portal, and ends invoiced (by the customer or the integrator), in a global invoice, or
 * cancelled. `invoice_document_id` names the CFDI that covered it, whichever it was. The merchant's
 * `receipt_grace_days` moves a receipt's expiry past the end of the month of the sale.
 */
export class Migration20261128700000Receipts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table receipts (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        merchant_id text collate "C" not null references merchants(id),
        key text collate "C" not null unique,
        status text not null default 'open' check (status in ('open', 'invoiced', 'in_global', 'cancelled')),
        items jsonb not null,
        prices_include_tax boolean not null,
        forma_pago text not null,
        branch text,
        external_id text,
        subtotal numeric(24, 6) not null,
        total numeric(24, 2) not null,
        expires_at timestamptz(3) not null,
        invoice_document_id text collate "C" references documents(id),
        cancelled_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index receipts_scope_idx on receipts (account_id, livemode, id desc);
      create index receipts_open_idx on receipts (merchant_id, expires_at) where status = 'open';
      create index receipts_external_idx on receipts (account_id, livemode, external_id) where external_id is not null;

      alter table merchants add column receipt_grace_days integer not null default 0
        check (receipt_grace_days between 0 and 60);
    `);
  }
}
