import { Migration } from '@mikro-orm/migrations';

/**
 * One row per sealed CFDI: the sha256 of its cadena original (which carries the issuer's RFC, NoCertificado, Fecha,
 * Serie, Folio and every amount). The primary key makes two documents sealing to the same CFDI impossible, across
 * every account and mode (tenants share the SAT test CSDs, and the PAC would answer the second with the first's
 * stamp). Only the hash is kept: nothing of a tenant's document can be read from it.
 */
export class Migration20261125100000SealedFingerprints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table sealed_fingerprints (
        fingerprint text primary key,
        document_id text not null,
        created_at timestamptz not null default now()
      );`);
    this.addSql('create index sealed_fingerprints_document_idx on sealed_fingerprints (document_id);');
  }
}
