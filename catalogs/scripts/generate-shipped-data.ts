/**
 * Regenerates catalogs/data/*.json (the small catalogs shipped with the package, used before any import)
 * from the SAT TSV files: `npx tsx catalogs/scripts/generate-shipped-data.ts [dir]`.
 * Default dir: $CATALOGS_DIR or <SAT_DIR>/catalogs.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { readTsvDirectory } from '../src/source/read-tsv';
import { IMPORT_ONLY_SMALL, isSmallCatalog } from '../src/definitions';

async function main(): Promise<void> {
  const dir = process.argv[2] ?? process.env.CATALOGS_DIR ?? path.join(defaultSatDir(), 'catalogs');
  const out = path.resolve(__dirname, '../data');
  await fs.mkdir(out, { recursive: true });
  for (const { definition, rows } of await readTsvDirectory(dir)) {
    // Tens of thousands of keys: like products, the fracciones and Carta Porte keys exist only after an import.
    if (!isSmallCatalog(definition.name) || IMPORT_ONLY_SMALL.includes(definition.name)) continue;
    const sorted = [...rows].sort((a, b) => compare(definition.key(a), definition.key(b)));
    // One row per line: readable diffs when the SAT changes a catalog.
    await fs.writeFile(
      path.join(out, `${definition.name}.json`),
      `[\n${sorted.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`,
    );
    console.log(`${definition.name}: ${rows.length} rows`);
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
