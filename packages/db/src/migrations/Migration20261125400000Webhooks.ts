import { Migration } from '@mikro-orm/migrations';

/**
 * Webhook endpoints and every delivery attempt. The outbox (`events`) already exists; its `delivered_at` means
 * "handed to the delivery workflows" (the dispatcher sets it in the transaction that claims the row).
 */
export class Migration20261125400000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table webhook_endpoints (
        id text collate "C" primary key,
        account_id text collate "C" not null references accounts(id),
        livemode boolean not null,
        url text not null,
        description text,
        enabled_events text[] not null,
        -- secret-box envelopes (AES-256-GCM under MASTER_KEY, authenticated with the endpoint id): deliveries must be
        -- signed with them, so they cannot be hashed like API keys
        secret text not null,
        previous_secret text,
        previous_secret_expires_at timestamptz(3),
        disabled boolean not null default false,
        disabled_reason text check (disabled_reason in ('requested', 'gone', 'failing')),
        -- start of the current run of failed attempts; null after a success
        failing_since timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        deleted_at timestamptz(3)
      );
      create index webhook_endpoints_scope_idx on webhook_endpoints (account_id, livemode, id desc) where deleted_at is null;

      create table webhook_attempts (
        id text collate "C" primary key,
        account_id text collate "C" not null,
        livemode boolean not null,
        event_id text collate "C" not null,
        endpoint_id text collate "C" not null references webhook_endpoints(id),
        url text not null,
        redelivery boolean not null,
        status_code integer,
        duration_ms integer not null,
        response_body text,
        error text,
        succeeded boolean not null,
        created_at timestamptz(3) not null default now()
      );
      create index webhook_attempts_endpoint_idx on webhook_attempts (endpoint_id, id desc);
      create index webhook_attempts_event_idx on webhook_attempts (event_id, id desc);
      create index webhook_attempts_created_idx on webhook_attempts (created_at);

      create index events_created_idx on events (created_at);
    `);
  }
}
