import type { CatalogDefinition, CatalogRow } from '../definitions';
import { CatalogSourceError } from './source-error';

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})?$/;

/**
 * Rejects data that would corrupt the catalog: no rows at all, rows without a key, duplicate keys (the
 * merge would otherwise fail on them) and malformed dates. `origin` names the file or sheet in the message.
 */
export function checkRows(definition: CatalogDefinition, rows: readonly CatalogRow[], origin: string): void {
  // An empty file or sheet is a broken download, not a catalog the SAT emptied: never wipe the data for it.
  if (rows.length === 0) throw new CatalogSourceError(`${origin}: no rows`);
  const seen = new Set<string>();
  rows.forEach((row, i) => {
    const where = `${origin} row ${i + 1}`;
    const key = definition.key(row);
    if (!key) throw new CatalogSourceError(`${where}: empty key`);
    if (seen.has(key)) throw new CatalogSourceError(`${where}: duplicate key ${key}`);
    seen.add(key);
    for (const column of ['vigencia_desde', 'vigencia_hasta']) {
      if (!ISO_DATE.test(row[column] ?? ''))
        throw new CatalogSourceError(`${where}: ${column} "${row[column]}" is not YYYY-MM-DD`);
    }
  });
}
