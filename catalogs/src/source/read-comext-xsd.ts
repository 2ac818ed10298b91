import fs from 'node:fs/promises';
import path from 'node:path';
import { CATALOGS, COMEXT_XSD } from '../definitions';
import type { CatalogData } from './catalog-data';
import { checkRows } from './check-rows';

/** Where the SAT mirror keeps catComExt.xsd, relative to its `catalogs` TSV directory. */
const MIRROR_PATH = '../xml/www.sat.gob.mx/sitio_internet/cfd/catalogos/ComExt';

/**
 * The Comercio Exterior catalogs (c_INCOTERM, c_UnidadAduana, c_FraccionArancelaria) read from the SAT's own
 * catComExt.xsd, found in `dir` or where the SAT mirror puts it beside `dir`: the schema's enumerations are the keys
 * the SAT validates against; it carries no descriptions, so the rows have none. Nothing when the file is absent.
 */
export async function readComExtXsd(dir: string): Promise<CatalogData[]> {
  const candidates = [path.join(dir, COMEXT_XSD), path.join(dir, MIRROR_PATH, COMEXT_XSD)];
  for (const file of candidates) {
    const xsd = await fs.readFile(file, 'utf8').catch(() => undefined);
    if (xsd === undefined) continue;
    return CATALOGS.filter((c) => c.file === COMEXT_XSD).map((definition) => {
      const rows = enumerations(xsd, definition.sheet).map((clave) => ({ clave }));
      checkRows(definition, rows, `${file} [${definition.sheet}]`);
      return { definition, rows };
    });
  }
  return [];
}

function enumerations(xsd: string, type: string): string[] {
  const start = xsd.indexOf(`<xs:simpleType name="${type}"`);
  if (start < 0) return [];
  const body = xsd.slice(start, xsd.indexOf('</xs:simpleType>', start));
  return [...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]!);
}
