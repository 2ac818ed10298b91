import { Migration } from '@mikro-orm/migrations';

/**
 * Console users (who sign in to the console and to the OAuth consent page) and the OAuth 2.1 authorization server
 * of the MCP tool server. Every secret (password, authorization code, access and refresh token, form handle, CSRF
 * cookie) is stored hashed: passwords with scrypt, random tokens with sha256.
 */
export class Migration20261125700000ConsoleUsersOAuth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table console_users (
        id text collate "C" primary key,
        email text not null,
        password_hash text not null,
        role text not null check (role in ('admin', 'operator', 'finance')),
        account_id text collate "C" references accounts (id),
        livemode boolean,
        merchant_ids text[],
        failed_logins integer not null default 0,
        locked_until timestamptz(3),
        disabled_at timestamptz(3),
        created_at timestamptz(3) not null default now(),
        updated_at timestamptz(3) not null default now(),
        check (role <> 'finance' or account_id is not null)
      );`);
    this.addSql('create unique index console_users_email_idx on console_users (lower(email));');
    this.addSql(`
      create table oauth_clients (
        id text collate "C" primary key,
        client_name text,
        redirect_uris text[] not null,
        metadata jsonb not null,
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(`
      create table oauth_authorizations (
        id text collate "C" primary key,
        handle_hash text not null unique,
        csrf_hash text not null,
        client_id text collate "C" not null references oauth_clients (id),
        redirect_uri text not null,
        state text,
        code_challenge text not null,
        scope text,
        resource text not null,
        livemode boolean not null,
        console_user_id text collate "C" references console_users (id),
        merchant_ids text[],
        code_hash text unique,
        expires_at timestamptz(3) not null,
        used_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(`
      create table oauth_grants (
        id text collate "C" primary key,
        client_id text collate "C" not null references oauth_clients (id),
        console_user_id text collate "C" not null references console_users (id),
        account_id text collate "C" not null references accounts (id),
        livemode boolean not null,
        merchant_ids text[],
        resource text not null,
        scope text,
        revoked_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql(`
      create table oauth_tokens (
        token_hash text primary key,
        grant_id text collate "C" not null references oauth_grants (id),
        kind text not null check (kind in ('access', 'refresh')),
        expires_at timestamptz(3) not null,
        used_at timestamptz(3),
        created_at timestamptz(3) not null default now()
      );`);
    this.addSql('create index oauth_tokens_grant_idx on oauth_tokens (grant_id);');
  }
}
