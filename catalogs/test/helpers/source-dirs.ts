import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultCatalogsDir } from '../../src/default-dir';

export const satCatalogsDir = defaultCatalogsDir();

/**
 * A temp copy of some SAT TSV files, each optionally rewritten line by line (`edit` gets the data lines
 * without the header and returns the new ones).
 */
export async function tsvCopy(files: Record<string, (lines: string[]) => string[]>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cfdi-catalogs-'));
  for (const [file, edit] of Object.entries(files)) {
    const [header, ...lines] = (await fs.readFile(path.join(satCatalogsDir, file), 'utf8'))
      .trimEnd()
      .split('\n');
    await fs.writeFile(path.join(dir, file), `${[header, ...edit(lines)].join('\n')}\n`);
  }
  return dir;
}

/** Replaces column `index` of the row whose first field is `key`. */
export function setField(lines: string[], key: string, index: number, value: string): string[] {
  return lines.map((line) => {
    const fields = line.split('\t');
    if (fields[0] !== key) return line;
    fields[index] = value;
    return fields.join('\t');
  });
}
