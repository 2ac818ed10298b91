import { Migration } from '@mikro-orm/migrations';

/**
 * Saved customers and products per (account, mode). Soft delete: a deleted record leaves reads, lists and new
 * documents, while the documents made from it keep their own copy of its data (and `documents.customer_id`, which
 * names the customer a document was made for, e.g. to find its e-mail addresses).
 */
export class Migration20261128500000CustomersProducts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table customers (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        rfc text not null,
        legal_name text not null,
        regimen_fiscal text not null,
        zip text not null,
        uso_cfdi text,
        emails jsonb not null default '[]',
        locale text not null default 'es' check (locale in ('es', 'en')),
        auto_email boolean,
        address jsonb,
        deleted_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index customers_scope_idx on customers (account_id, livemode, id desc) where deleted_at is null;
      create index customers_rfc_idx on customers (account_id, livemode, rfc) where deleted_at is null;

      create table products (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        description text not null,
        product_code text not null,
        unit_code text not null,
        unit_name text,
        price numeric(24, 6) not null,
        prices_include_tax boolean not null,
        taxable boolean not null,
        iva_rate numeric(4, 2),
        ieps_rate numeric(8, 6),
        sku text,
        deleted_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index products_scope_idx on products (account_id, livemode, id desc) where deleted_at is null;
      create unique index products_sku_idx on products (account_id, livemode, sku)
        where deleted_at is null and sku is not null;

      alter table documents add column customer_id text collate "C" references customers(id);
    `);
  }
}
