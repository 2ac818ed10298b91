import { Migration } from '@mikro-orm/migrations';

/**
 * Console exports built by a workflow (documents CSV, ZIP of XML + PDF): one row per export with its progress and,
 * once ready, the stored file.
 */
export class Migration20261128900000DocumentExports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table document_exports (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        -- the requesting user's merchant limit, kept so the export holds what they may see (null: every merchant)
        merchant_ids text[],
        requested_by text collate "C",
        format text not null check (format in ('csv', 'zip')),
        -- the documents search (a month or the list's filter) as the console took it
        search jsonb not null,
        status text not null check (status in ('running', 'ready', 'failed')),
        total integer not null,
        processed integer not null default 0,
        file_key text,
        bytes bigint,
        error text,
        created_at timestamptz(3) not null default now(),
        completed_at timestamptz(3)
      );
      create index document_exports_account_idx on document_exports (account_id, livemode, id desc);
    `);
  }
}
