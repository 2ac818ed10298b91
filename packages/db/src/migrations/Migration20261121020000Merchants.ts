import { Migration } from '@mikro-orm/migrations';

/**
 * Merchants (issuers) per (account, mode), their CSD and logo. Soft delete keeps the row for the
 * documents that reference it. The CSD row holds the certificate in clear (it is public, it goes in every
 * CFDI) and the private key and its password only as AES-256-GCM envelopes (`v1:<keyId>:…`).
 */
export class Migration20261121020000Merchants extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table merchants (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        rfc text not null,
        legal_name text not null,
        regimen_fiscal text not null,
        zip text not null,
        serie text not null,
        default_clave_prod_serv text,
        default_clave_unidad text,
        logo_key text,
        deleted_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
      create index merchants_scope_idx on merchants (account_id, livemode, id desc) where deleted_at is null;
      create table merchant_csds (
        merchant_id text collate "C" primary key references merchants(id),
        serial_number text not null,
        rfc text not null,
        valid_from timestamptz(3) not null,
        valid_to timestamptz(3) not null,
        certificate_der bytea not null,
        private_key_encrypted text not null check (private_key_encrypted like 'v1:%'),
        password_encrypted text not null check (password_encrypted like 'v1:%'),
        registered_with_pac boolean not null,
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now()
      );
    `);
  }
}
