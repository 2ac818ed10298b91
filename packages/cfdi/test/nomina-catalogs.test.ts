import fs from 'node:fs';
import path from 'node:path';
import * as catalogs from '../src/nomina/catalogs';
import type { NominaCatalog } from '../src/nomina/catalogs';
import { SAT_DIR } from './sat-dir';

/** Each Nómina catalog compiled into the engine, beside the SAT's TSV it was written from. */
const SOURCES: Record<string, NominaCatalog> = {
  nomina_tipos_percepcion: catalogs.TIPOS_PERCEPCION,
  nomina_tipos_deduccion: catalogs.TIPOS_DEDUCCION,
  nomina_tipos_otro_pago: catalogs.TIPOS_OTRO_PAGO,
  nomina_tipos_contrato: catalogs.TIPOS_CONTRATO,
  nomina_tipos_regimen: catalogs.TIPOS_REGIMEN,
  nomina_tipos_jornada: catalogs.TIPOS_JORNADA,
  nomina_periodicidades_pago: catalogs.PERIODICIDADES_PAGO,
  nomina_riesgos_puesto: catalogs.RIESGOS_PUESTO,
  nomina_tipos_incapacidad: catalogs.TIPOS_INCAPACIDAD,
  nomina_tipos_horas: catalogs.TIPOS_HORAS,
  nomina_bancos: catalogs.BANCOS,
  nomina_estados: catalogs.ESTADOS_MEX,
};

/** The TSV's keys; c_Estado also lists other countries' states, and the engine holds Mexico's (pais MEX). */
function tsvKeys(name: string): string[] {
  const [header, ...rows] = fs
    .readFileSync(path.join(SAT_DIR, 'catalogs', `${name}.tsv`), 'utf8')
    .trim()
    .split('\n');
  const country = header!.split('\t').indexOf('pais');
  return rows
    .map((row) => row.split('\t'))
    .filter((cells) => country < 0 || cells[country] === 'MEX')
    .map((cells) => cells[0]!);
}

describe('Nómina catalogs', () => {
  it.each(Object.keys(SOURCES))('%s holds the keys of the SAT catalog', (name) => {
    expect([...SOURCES[name]!.keys].sort()).toEqual(tsvKeys(name).sort());
  });
});
