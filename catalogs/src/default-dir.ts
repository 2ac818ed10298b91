import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';

/** The SAT catalog TSV directory: $CATALOGS_DIR, else <SAT_DIR>/catalogs. */
export function defaultCatalogsDir(env: Record<string, string | undefined> = process.env): string {
  return env.CATALOGS_DIR?.trim() || path.join(defaultSatDir(), 'catalogs');
}
