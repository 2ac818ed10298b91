import fs from 'node:fs/promises';
import path from 'node:path';
import { CARTA_PORTE_XSD, CATALOGS, COMEXT_XSD } from '../definitions';
import type { CatalogData } from './catalog-data';
import { checkRows } from './check-rows';

/** Where the SAT mirror keeps each catalog schema, relative to its `catalogs` TSV directory. */
const MIRROR_PATHS: Record<string, string> = {
  [COMEXT_XSD]: '../xml/www.sat.gob.mx/sitio_internet/cfd/catalogos/ComExt',
  [CARTA_PORTE_XSD]: '../xml/www.sat.gob.mx/sitio_internet/cfd/catalogos/CartaPorte',
};

/**
 * The Comercio Exterior catalogs (c_INCOTERM, c_UnidadAduana, c_FraccionArancelaria) read from the SAT's own
 * catComExt.xsd, and the large Carta Porte ones (c_ClaveProdServCP, c_MaterialPeligroso) from catCartaPorte.xsd, each
 * found in `dir` or where the SAT mirror puts it beside `dir`: the schema's enumerations are the keys the SAT
 * validates against; it carries no descriptions, so the rows have none. Nothing for a schema that is absent.
 */
export async function readComExtXsd(dir: string): Promise<CatalogData[]> {
  const out: CatalogData[] = [];
  for (const [schema, mirror] of Object.entries(MIRROR_PATHS)) {
    for (const file of [path.join(dir, schema), path.join(dir, mirror, schema)]) {
      const xsd = await fs.readFile(file, 'utf8').catch(() => undefined);
      if (xsd === undefined) continue;
      for (const definition of CATALOGS.filter((c) => c.file === schema)) {
        const rows = enumerations(xsd, definition.sheet).map((clave) => ({ clave }));
        checkRows(definition, rows, `${file} [${definition.sheet}]`);
        out.push({ definition, rows });
      }
      break;
    }
  }
  return out;
}

function enumerations(xsd: string, type: string): string[] {
  const start = xsd.indexOf(`<xs:simpleType name="${type}"`);
  if (start < 0) return [];
  const body = xsd.slice(start, xsd.indexOf('</xs:simpleType>', start));
  return [...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]!);
}
