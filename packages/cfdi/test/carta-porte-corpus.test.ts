import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildInvoiceXml,
  buildTrasladoXml,
  checkInvoiceRequest,
  checkTrasladoRequest,
  sealXml,
  type Csd,
  type InvoiceInput,
} from '../src';
import { tsvCatalogs } from './catalogs';
import { cartaPorteCase } from './carta-porte-generators';
import { ISSUERS } from './generators';
import { satArithmeticErrors } from './sat-checks';
import { loadCsd, NOW, requireTools } from './sat-dir';
import { sealFailures, xmllintFailures, xsltprocMismatches } from './tools';

jest.setTimeout(300_000);

/**
 * 240 generated Carta Porte 3.1 documents (fixed seed): traslados (T) and freight invoices (I). Each request passes
 * the rules the API checks, is built from what the validation returns (as the service stores it), and its XML is
 * checked by the SAT's own tools: xmllint with the XSD bundle (CartaPorte31.xsd and catCartaPorte.xsd included),
 * xsltproc with the cadena XSLT (which includes CartaPorte31.xslt), openssl for the seal.
 */
const SEED = 20261128;
const DOCUMENTS = 240;
const catalogs = tsvCatalogs();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-cp-corpus-'));
const csds = new Map<string, Csd>(ISSUERS.map((i) => [i.csd, loadCsd(i.csd)]));
const docs: Array<{ name: string; file: string; csd: string; xml: string; cadena: string; sello: string }> =
  [];
const refused: string[] = [];

beforeAll(() => {
  requireTools();
  let n = 0;
  const newUuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
  fc.sample(cartaPorteCase, { seed: SEED, numRuns: DOCUMENTS }).forEach(
    ({ kind, issuer, csd, request }, i) => {
      let xml: string;
      if (kind === 'T') {
        const checked = checkTrasladoRequest(request, catalogs, { issuer, newUuid });
        if (!checked.input) return void refused.push(`${i}: ${JSON.stringify(checked.issues)}`);
        xml = buildTrasladoXml({ ...checked.input, folio: i + 1 }, { now: NOW }).xml;
      } else {
        const checked = checkInvoiceRequest(request, catalogs, { issuer, now: NOW, newUuid });
        if (!checked.computed || !checked.cartaPorte)
          return void refused.push(`${i}: ${JSON.stringify(checked.issues)}`);
        const r = request as Pick<InvoiceInput, 'items' | 'receiver' | 'formaPago' | 'usoCfdi'>;
        const input: InvoiceInput = { issuer, ...r, folio: i + 1, cartaPorte: checked.cartaPorte };
        xml = buildInvoiceXml(input, { now: NOW }).xml;
      }
      const sealed = sealXml(xml, csds.get(csd)!);
      const name = `${String(i).padStart(4, '0')}-CP-${kind}`;
      const file = path.join(dir, `${name}.xml`);
      fs.writeFileSync(file, sealed.xml);
      docs.push({ name, file, csd, xml: sealed.xml, cadena: sealed.cadena, sello: sealed.sello });
    },
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Carta Porte corpus (traslados and freight invoices, fixed seed)', () => {
  it('every generated request passes the rules the API checks', () => {
    expect(refused).toEqual([]);
    expect(docs.length).toBe(DOCUMENTS);
  });

  it('covers traslados and invoices, several stops, hazardous goods, trailers and owners', () => {
    const all = docs.map((d) => d.xml).join('\n');
    for (const needle of [
      'TipoDeComprobante="T"',
      'TipoDeComprobante="I"',
      'MaterialPeligroso="Sí"',
      'MaterialPeligroso="No"',
      'cartaporte31:Remolque ',
      'TipoFigura="02"',
      'AseguraMedAmbiente=',
      'IDUbicacion="OR000011"',
      'IDUbicacion="DE000002"',
    ])
      expect(all).toContain(needle);
    expect(docs.some((d) => (d.xml.match(/TipoUbicacion="Destino"/g) ?? []).length > 3)).toBe(true);
    expect(docs.some((d) => (d.xml.match(/<cartaporte31:Remolque /g) ?? []).length === 2)).toBe(true);
    // A traslado: XXX, SubTotal and Total 0, no FormaPago, MetodoPago or Impuestos.
    for (const d of docs.filter((x) => x.name.endsWith('-T'))) {
      expect(d.xml).toMatch(/ SubTotal="0" Moneda="XXX" Total="0" TipoDeComprobante="T"/);
      expect(d.xml).not.toMatch(/FormaPago=|MetodoPago=|<cfdi:Impuestos/);
    }
  });

  it('every document passes the SAT arithmetic checks and the Carta Porte sums', () => {
    expect(docs.flatMap((d) => satArithmeticErrors(d.xml).map((e) => `${d.name}: ${e}`))).toEqual([]);
  });

  it('every document validates against the SAT XSD (xmllint)', async () => {
    expect(await xmllintFailures(docs.map((d) => d.file))).toEqual([]);
  });

  it('every cadena is byte-identical to xsltproc with cadenaoriginal_4_0.xslt (which includes CartaPorte31.xslt)', async () => {
    expect(
      await xsltprocMismatches(
        docs.map((d) => d.file),
        new Map(docs.map((d) => [d.file, d.cadena])),
      ),
    ).toEqual([]);
  });

  it('every seal verifies with openssl dgst -sha256 -verify and with verifySeal', async () => {
    expect(await sealFailures(dir, docs, csds)).toEqual([]);
  });
});
