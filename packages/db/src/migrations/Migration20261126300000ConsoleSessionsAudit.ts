import { Migration } from '@mikro-orm/migrations';

/**
 * The console's server-side sessions (the cookie carries a random token, stored here as sha256, so a leaked table
 * signs nobody in, and deleting or revoking a row signs its holder out at once) and its audit log: who did what,
 * when and from where, for every state-changing action taken in the console.
 */
export class Migration20261126300000ConsoleSessionsAudit extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table console_sessions (
        id text collate "C" primary key,
        token_hash text not null unique,
        console_user_id text collate "C" not null references console_users (id),
        ip text,
        user_agent text,
        created_at timestamptz(3) not null default now(),
        last_seen_at timestamptz(3) not null default now(),
        expires_at timestamptz(3) not null,
        revoked_at timestamptz(3)
      );`);
    this.addSql('create index console_sessions_user_idx on console_sessions (console_user_id);');
    this.addSql(`
      create table console_audit (
        id text collate "C" primary key,
        console_user_id text collate "C" references console_users (id),
        actor_email text not null,
        action text not null,
        target text,
        account_id text collate "C",
        livemode boolean,
        detail jsonb,
        ip text,
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql('create index console_audit_account_idx on console_audit (account_id, id desc);');
  }
}
