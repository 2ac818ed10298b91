import { Migration } from '@mikro-orm/migrations';

/**
 * Stamped documents (invoices of every kind, credit notes, payment complements, payroll receipts) share one
 * table: they go through the same stamping, money, files and reconciliation machinery.
 */
export class Migration20261121030000Documents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table folio_sequences (
        merchant_id text collate "C" not null,
        serie text not null,
        last_folio bigint not null,
        primary key (merchant_id, serie)
      );

      create table documents (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        merchant_id text collate "C" not null,
        type text not null check (type in ('invoice', 'payment', 'nomina')),
        kind text check (kind in ('nominal', 'global', 'credit_note')),
        status text not null check (status in ('stamping', 'stamped', 'stamp_failed', 'cancel_pending', 'cancelled')),
        serie text not null,
        folio bigint not null,
        folio_text text,
        metodo_pago text,
        forma_pago text,
        uso_cfdi text,
        currency text not null default 'MXN',
        subtotal numeric(20, 2) not null default 0,
        discount numeric(20, 2) not null default 0,
        total numeric(20, 2) not null default 0,
        saldo_pendiente numeric(20, 2),
        receiver jsonb not null,
        tipo_relacion text,
        related_uuid text,
        related_invoice_id text collate "C",
        invoice_id text collate "C" references documents(id),
        num_parcialidad integer,
        monto numeric(20, 2),
        fecha_pago text,
        saldo_anterior numeric(20, 2),
        saldo_insoluto numeric(20, 2),
        -- the engine input, kept so the sealed XML can be rebuilt for inspection and the PDF can be re-rendered
        input jsonb not null,
        fecha text,
        -- persisted before the PAC call and re-sent byte-identical, never re-sealed (PAC reconciliation key)
        sealed_xml text,
        stamped_xml text,
        uuid text,
        stamped_at timestamptz(3),
        sat_code text,
        failure_detail text,
        needs_reconciliation boolean not null default false,
        reservation_id text collate "C" references transactions(id),
        reservation_state text not null default 'reserved' check (reservation_state in ('reserved', 'confirmed', 'refunded')),
        files_status text not null default 'pending' check (files_status in ('pending', 'processing', 'ready', 'failed')),
        files jsonb,
        cancellation jsonb,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        unique (merchant_id, serie, folio)
      );
      create index documents_scope_idx on documents (account_id, livemode, type, id desc);
      create unique index documents_uuid_idx on documents (uuid) where uuid is not null;
      create index documents_invoice_idx on documents (invoice_id) where invoice_id is not null;
      create index documents_reconciliation_idx on documents (account_id, livemode) where needs_reconciliation;

      create table idempotency_keys (
        account_id text collate "C" not null,
        livemode boolean not null,
        key text not null,
        operation text not null,
        request_hash text not null,
        state text not null check (state in ('in_flight', 'completed')),
        resource_id text collate "C",
        response_status integer,
        response_body jsonb,
        locked_until timestamptz(3) not null,
        created_at timestamptz(3) not null default now(),
        primary key (account_id, livemode, key)
      );

      create table events (
        id text collate "C" primary key,
        account_id text collate "C" not null,
        livemode boolean not null,
        type text not null,
        data jsonb not null,
        delivered_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );
      create index events_scope_idx on events (account_id, livemode, id desc);
      create index events_undelivered_idx on events (id) where delivered_at is null;

      create table reconciliations (
        id text collate "C" primary key,
        document_id text collate "C" not null references documents(id),
        resolution text not null check (resolution in ('stamped', 'not_stamped')),
        uuid text,
        resolved_by text not null,
        note text,
        created_at timestamptz(3) not null default now()
      );
      create index reconciliations_document_idx on reconciliations (document_id);
    `);
  }
}
