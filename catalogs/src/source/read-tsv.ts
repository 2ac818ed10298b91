import fs from 'node:fs/promises';
import path from 'node:path';
import { CATALOGS, type CatalogDefinition, type CatalogRow } from '../definitions';
import type { CatalogData } from './catalog-data';
import { checkRows } from './check-rows';
import { readComExtXsd } from './read-comext-xsd';
import { CatalogSourceError } from './source-error';

/** Reads every known catalog file present in `dir` (see /sat/catalogs/README.md for the format). */
export async function readTsvDirectory(dir: string): Promise<CatalogData[]> {
  const present = new Set(await fs.readdir(dir));
  const found = CATALOGS.filter((c) => c.file.endsWith('.tsv') && present.has(c.file));
  if (found.length === 0)
    throw new CatalogSourceError(
      `${dir} holds none of the catalog files (${CATALOGS.map((c) => c.file).join(', ')})`,
    );
  const tsv = await Promise.all(
    found.map(async (definition) => {
      const file = path.join(dir, definition.file);
      const rows = parseTsv(definition, await fs.readFile(file, 'utf8'), file);
      checkRows(definition, rows, file);
      return { definition, rows };
    }),
  );
  return [...tsv, ...(await readComExtXsd(dir))];
}

function parseTsv(definition: CatalogDefinition, text: string, origin: string): CatalogRow[] {
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const header = (lines.shift() ?? '').split('\t');
  const indexes = definition.columns.map((column) => {
    const index = header.indexOf(column.name);
    if (index < 0) throw new CatalogSourceError(`${origin}: missing column ${column.name}`);
    return index;
  });
  const rows: CatalogRow[] = [];
  for (const line of lines) {
    if (line === '') continue;
    const fields = line.split('\t');
    const row: CatalogRow = {};
    definition.columns.forEach((column, i) => {
      row[column.name] = fields[indexes[i]!] ?? '';
    });
    rows.push(row);
  }
  return rows;
}
