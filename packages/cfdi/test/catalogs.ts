import fs from 'node:fs';
import path from 'node:path';
import type { CatalogLookup } from '../src';
import { SAT_DIR } from './sat-dir';

/** Test-only CatalogLookup read from the SAT TSVs (the catalogs team ships the real one). */
function rows(file: string): Array<Record<string, string>> {
  const [head, ...lines] = fs.readFileSync(path.join(SAT_DIR, 'catalogs', file), 'utf8').trimEnd().split('\n');
  const cols = head!.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [cols[i], v])));
}

export function tsvCatalogs(): CatalogLookup {
  const products = new Set(rows('products.tsv').filter((r) => !r.vigencia_hasta).map((r) => r.clave!));
  const units = new Set(rows('units.tsv').filter((r) => !r.vigencia_hasta).map((r) => r.clave!));
  const formas = new Set(rows('formas_pago.tsv').map((r) => r.clave!));
  const usos = new Map(rows('usos_cfdi.tsv').map((r) => [r.clave!, { fisica: r.fisica === 'true', moral: r.moral === 'true', regimenesReceptor: r.regimenes_receptor!.split(',') }]));
  const regimenes = new Map(rows('regimenes.tsv').map((r) => [r.clave!, { fisica: r.fisica === 'true', moral: r.moral === 'true' }]));
  return {
    hasProductCode: (c) => products.has(c),
    hasUnitCode: (c) => units.has(c),
    usoCfdi: (c) => usos.get(c),
    regimen: (c) => regimenes.get(c),
    hasFormaPago: (c) => formas.has(c),
  };
}
