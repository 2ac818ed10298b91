import fs from 'node:fs/promises';
import type { CatalogData } from './catalog-data';
import { readTsvDirectory } from './read-tsv';
import { CatalogSourceError } from './source-error';

/** A directory of TSV files or one SAT workbook (.xls/.xlsx). */
export async function readSource(source: string): Promise<CatalogData[]> {
  const stat = await fs.stat(source).catch((error: unknown) => {
    throw new CatalogSourceError(`${source} does not exist`, { cause: error });
  });
  if (stat.isDirectory()) return readTsvDirectory(source);
  // Loaded on demand: xlsx costs ~230 ms and ~20 MB, which the API and workers importing this package never need.
  if (/\.xlsx?$/i.test(source)) return (await import('./read-workbook')).readWorkbook(source);
  throw new CatalogSourceError(`${source} is neither a directory of .tsv files nor an .xls/.xlsx workbook`);
}
