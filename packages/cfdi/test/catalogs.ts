import fs from 'node:fs';
import path from 'node:path';
import type { CatalogLookup, ComercioExteriorCatalog } from '../src';
import { SAT_DIR } from './sat-dir';

/** Test-only CatalogLookup read from the SAT TSVs (the catalogs team ships the real one). */
function rows(file: string): Array<Record<string, string>> {
  const [head, ...lines] = fs
    .readFileSync(path.join(SAT_DIR, 'catalogs', file), 'utf8')
    .trimEnd()
    .split('\n');
  const cols = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])));
}

export function tsvCatalogs(): CatalogLookup {
  const products = new Set(
    rows('products.tsv')
      .filter((r) => !r.vigencia_hasta)
      .map((r) => r.clave!),
  );
  const units = new Set(
    rows('units.tsv')
      .filter((r) => !r.vigencia_hasta)
      .map((r) => r.clave!),
  );
  const formas = new Set(rows('formas_pago.tsv').map((r) => r.clave!));
  const usos = new Map(
    rows('usos_cfdi.tsv').map((r) => [
      r.clave!,
      {
        fisica: r.fisica === 'true',
        moral: r.moral === 'true',
        regimenesReceptor: r.regimenes_receptor!.split(','),
      },
    ]),
  );
  const regimenes = new Map(
    rows('regimenes.tsv').map((r) => [r.clave!, { fisica: r.fisica === 'true', moral: r.moral === 'true' }]),
  );
  const monedas = new Map(
    rows('monedas.tsv').map((r) => [
      r.clave!,
      { decimales: Number(r.decimales), variacion: Number(r.porcentaje_variacion) },
    ]),
  );
  const paises = new Map(
    rows('paises.tsv').map((r) => [r.clave!, { patronIdentidadTributaria: r.patron_identidad_tributaria! }]),
  );
  const comext = comExtKeys();
  const cartaPorte = {
    'productos-carta-porte': new Set(cartaPorteKeys('c_ClaveProdServCP')),
    'materiales-peligrosos': new Set(cartaPorteKeys('c_MaterialPeligroso')),
  };
  return {
    hasProductCode: (c) => products.has(c),
    hasUnitCode: (c) => units.has(c),
    usoCfdi: (c) => usos.get(c),
    regimen: (c) => regimenes.get(c),
    hasFormaPago: (c) => formas.has(c),
    moneda: (c) => monedas.get(c),
    pais: (c) => paises.get(c),
    hasComercioExteriorKey: (catalog, c) => comext[catalog].has(c),
    hasCartaPorteKey: (catalog, c) => cartaPorte[catalog].has(c),
  };
}

const COMEXT_TYPES = {
  incoterms: 'c_INCOTERM',
  'unidades-aduana': 'c_UnidadAduana',
  'fracciones-arancelarias': 'c_FraccionArancelaria',
} as const;

/** The keys of the SAT's catComExt.xsd enumerations (Incoterms, unidades de aduana, fracciones arancelarias). */
export function comExtKeys(): Record<ComercioExteriorCatalog, Set<string>> {
  const xsd = fs.readFileSync(
    path.join(SAT_DIR, 'xml/www.sat.gob.mx/sitio_internet/cfd/catalogos/ComExt/catComExt.xsd'),
    'utf8',
  );
  const keys = (type: string): Set<string> => {
    const start = xsd.indexOf(`<xs:simpleType name="${type}"`);
    const body = xsd.slice(start, xsd.indexOf('</xs:simpleType>', start));
    return new Set([...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]!));
  };
  return {
    incoterms: keys(COMEXT_TYPES.incoterms),
    'unidades-aduana': keys(COMEXT_TYPES['unidades-aduana']),
    'fracciones-arancelarias': keys(COMEXT_TYPES['fracciones-arancelarias']),
  };
}

/** The keys of catCartaPorte.xsd enumerations (the SAT's Carta Porte catalogs), by xs:simpleType name. */
export function cartaPorteKeys(type: string): string[] {
  const xsd = fs.readFileSync(
    path.join(SAT_DIR, 'xml/www.sat.gob.mx/sitio_internet/cfd/catalogos/CartaPorte/catCartaPorte.xsd'),
    'utf8',
  );
  const start = xsd.indexOf(`<xs:simpleType name="${type}"`);
  if (start < 0) throw new Error(`catCartaPorte.xsd has no ${type}`);
  const body = xsd.slice(start, xsd.indexOf('</xs:simpleType>', start));
  return [...body.matchAll(/<xs:enumeration value="([^"]*)"/g)].map((m) => m[1]!);
}
