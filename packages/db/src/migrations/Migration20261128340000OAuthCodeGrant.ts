import { Migration } from '@mikro-orm/migrations';

/**
 * The grant an authorization code was exchanged for: a code presented again revokes it (OAuth 2.1 §4.1.3), so
 * every access and refresh token issued from that code stops working.
 */
export class Migration20261128340000OAuthCodeGrant extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      'alter table oauth_authorizations add column grant_id text collate "C" references oauth_grants (id);',
    );
  }
}
