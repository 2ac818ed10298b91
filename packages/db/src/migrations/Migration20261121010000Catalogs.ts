import { Migration } from '@mikro-orm/migrations';

/**
 * SAT catalogs. Products and units get typed tables (they are large and searched); the small catalogs
 * share `catalog_entries` with the source row as jsonb. `catalog_versions` gets a new number from
 * `catalog_version_seq` whenever an import changes a catalog, so processes holding an in-memory index
 * can tell with one tiny query whether to reload.
 */
export class Migration20261121010000Catalogs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table catalog_products (
        clave text collate "C" primary key,
        descripcion text not null,
        palabras_similares text not null,
        incluir_iva boolean not null,
        incluir_ieps boolean not null,
        complemento text not null,
        estimulo_franja_fronteriza boolean not null,
        vigencia_desde date,
        vigencia_hasta date
      );
      create table catalog_units (
        clave text collate "C" primary key,
        nombre text not null,
        simbolo text,
        descripcion text not null,
        notas text not null,
        vigencia_desde date,
        vigencia_hasta date
      );
      create table catalog_entries (
        catalog text collate "C" not null,
        clave text collate "C" not null,
        data jsonb not null,
        primary key (catalog, clave)
      );
      create sequence catalog_version_seq;
      create table catalog_versions (
        catalog text collate "C" primary key,
        version bigint not null,
        row_count integer not null,
        source text not null,
        changed_at timestamptz(3) not null default now()
      );
    `);
  }
}
