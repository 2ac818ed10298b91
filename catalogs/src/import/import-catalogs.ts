import type { EntityManager } from '@cfdi/db';
import type { Knex } from '@mikro-orm/postgresql';
import type { CatalogName } from '../definitions';
import { readSource } from '../source/read-source';
import { syncTable, type SyncCounts } from './sync-table';
import { tableTarget } from './table-targets';

export interface CatalogImportResult extends SyncCounts {
  catalog: CatalogName;
  rows: number;
}

export interface ImportResult {
  source: string;
  catalogs: CatalogImportResult[];
  durationMs: number;
}

export type ImportProgress =
  | { phase: 'read'; source: string }
  | { phase: 'stage'; catalog: CatalogName; done: number; total: number }
  | { phase: 'merge'; catalog: CatalogName; total: number }
  | { phase: 'done'; result: CatalogImportResult };

export interface ImportOptions {
  em: EntityManager;
  /** A directory of SAT catalog TSV files or one `catCFDI_V_4_*.xls(x)` workbook. */
  source: string;
  onProgress?: (event: ImportProgress) => void;
  /** Let a source remove more than SHRINK_LIMIT of a catalog's keys (see CatalogShrinkError). */
  allowShrink?: boolean;
}

/** More than this share of a catalog's keys gone at once is far more likely a truncated file than a SAT update. */
const SHRINK_LIMIT = 0.1;

/** The source would remove most of a catalog: nothing is imported unless `allowShrink` says it is meant. */
export class CatalogShrinkError extends Error {
  constructor(
    readonly catalog: CatalogName,
    readonly removed: number,
    readonly before: number,
  ) {
    super(
      `${catalog}: this source would remove ${removed} of its ${before} keys (a truncated or wrong file?); nothing was imported. ` +
        'Repeat with --allow-shrink if that is what you mean.',
    );
    this.name = 'CatalogShrinkError';
  }
}

/** Serialises imports across processes; released with the transaction (also when the process dies). */
const IMPORT_LOCK = "hashtext('cfdi.catalog-import')";

/**
 * Loads every catalog found in `source` into PostgreSQL. Idempotent: rows are diffed against the current
 * data, so a re-import of the same source reports 0 added/changed/removed and bumps no version. All
 * catalogs go in one transaction, so a failed or killed import leaves the previous data untouched.
 * Catalogs absent from the source are left as they are.
 */
export async function importCatalogs({
  em,
  source,
  onProgress = () => {},
  allowShrink = false,
}: ImportOptions): Promise<ImportResult> {
  const started = Date.now();
  onProgress({ phase: 'read', source });
  // Smallest first: the progress display shows the quick catalogs done before the long products run.
  const data = (await readSource(source)).sort((a, b) => a.rows.length - b.rows.length);

  const catalogs = await em.getKnex().transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(${IMPORT_LOCK})`);
    const results: CatalogImportResult[] = [];
    for (const { definition, rows } of data) {
      const catalog = definition.name;
      const target = tableTarget(definition);
      const records = rows.map((row) => target.toRecord(row, definition.key(row)));
      onProgress({ phase: 'stage', catalog, done: 0, total: rows.length });
      const before = await catalogRows(trx, catalog);
      const counts = await syncTable(trx, target, records, (done) => {
        onProgress({ phase: 'stage', catalog, done, total: rows.length });
        if (done === rows.length) onProgress({ phase: 'merge', catalog, total: rows.length });
      });
      // Thrown inside the transaction: every catalog of this import is rolled back.
      if (!allowShrink && counts.removed > before * SHRINK_LIMIT)
        throw new CatalogShrinkError(catalog, counts.removed, before);
      await recordVersion(trx, catalog, rows.length, source, counts);
      const result = { catalog, rows: rows.length, ...counts };
      results.push(result);
      onProgress({ phase: 'done', result });
    }
    return results;
  });
  return { source, catalogs, durationMs: Date.now() - started };
}

/** How many rows the catalog has now (0 before its first import). */
async function catalogRows(trx: Knex.Transaction, catalog: CatalogName): Promise<number> {
  const found = await trx.raw('select row_count from catalog_versions where catalog = ?', [catalog]);
  return Number((found.rows[0] as { row_count?: number } | undefined)?.row_count ?? 0);
}

/** A new version number only when the catalog changed (or was never imported), so readers reload only then. */
async function recordVersion(
  trx: Knex.Transaction,
  catalog: CatalogName,
  rows: number,
  source: string,
  counts: SyncCounts,
): Promise<void> {
  const changed = counts.added + counts.changed + counts.removed > 0;
  await trx.raw(
    `insert into catalog_versions (catalog, version, row_count, source) values (?, nextval('catalog_version_seq'), ?, ?)
     on conflict (catalog) do update set version = excluded.version, row_count = excluded.row_count,
       source = excluded.source, changed_at = now()
     where ?`,
    [catalog, rows, source, changed],
  );
}
