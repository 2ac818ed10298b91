import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildInvoiceXml, checkInvoiceRequest, sealXml, type Csd, type InvoiceInput } from '../src';
import { tsvCatalogs } from './catalogs';
import { exportInvoice } from './export-generators';
import { ISSUERS } from './generators';
import { satArithmeticErrors } from './sat-checks';
import { loadCsd, NOW, requireTools } from './sat-dir';
import { sealFailures, xmllintFailures, xsltprocMismatches } from './tools';

jest.setTimeout(300_000);

/**
 * 250 generated export invoices (Comercio Exterior 2.0, fixed seed): each request passes the API's rules, is built
 * from what the validation returns (as the service stores it), and its XML is checked by the SAT's own tools: xmllint
 * with the XSD bundle (ComercioExterior20.xsd and catComExt.xsd included), xsltproc with the cadena XSLT (which
 * includes ComercioExterior20.xslt), openssl for the seal.
 */
const SEED = 20261128;
const INVOICES = 250;
const catalogs = tsvCatalogs();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-export-corpus-'));
const csds = new Map<string, Csd>(ISSUERS.map((i) => [i.csd, loadCsd(i.csd)]));
const docs: Array<{ name: string; file: string; csd: string; xml: string; cadena: string; sello: string }> =
  [];
const refused: string[] = [];

beforeAll(() => {
  requireTools();
  fc.sample(exportInvoice, { seed: SEED, numRuns: INVOICES }).forEach(({ issuer, csd, request }, i) => {
    const checked = checkInvoiceRequest(request, catalogs, { issuer, now: NOW });
    if (!checked.computed || !checked.currency) {
      refused.push(`${i}: ${JSON.stringify(checked.issues)}`);
      return;
    }
    const r = request as { items: InvoiceInput['items']; receiver: InvoiceInput['receiver'] };
    const input: InvoiceInput = {
      issuer,
      receiver: r.receiver,
      formaPago: '03',
      usoCfdi: 'S01',
      items: r.items,
      pricesIncludeTax: request.pricesIncludeTax as boolean,
      folio: i + 1,
      ...(checked.currency.moneda !== 'MXN'
        ? {
            moneda: checked.currency.moneda,
            tipoCambio: checked.currency.tipoCambio!,
            currencyDecimals: checked.currency.decimales,
          }
        : {}),
      exportacion: '02',
      comercioExterior: checked.comercioExterior!,
    };
    const sealed = sealXml(buildInvoiceXml(input, { now: NOW }).xml, csds.get(csd)!);
    const name = `${String(i).padStart(4, '0')}-CCE`;
    const file = path.join(dir, `${name}.xml`);
    fs.writeFileSync(file, sealed.xml);
    docs.push({ name, file, csd, xml: sealed.xml, cadena: sealed.cadena, sello: sealed.sello });
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('export corpus (Comercio Exterior 2.0, fixed seed)', () => {
  it('every generated request passes the rules the API checks', () => {
    expect(refused).toEqual([]);
    expect(docs.length).toBe(INVOICES);
  });

  it('covers every currency kind, certificates of origin, destinatarios and several goods per document', () => {
    const all = docs.map((d) => d.xml).join('\n');
    for (const moneda of ['USD', 'EUR', 'JPY', 'KWD', 'MXN']) expect(all).toContain(`Moneda="${moneda}"`);
    for (const needle of [
      'CertificadoOrigen="1"',
      'CertificadoOrigen="0"',
      'cce20:Destinatario',
      'Exportacion="02"',
    ])
      expect(all).toContain(needle);
    expect(docs.some((d) => (d.xml.match(/<cce20:Mercancia /g) ?? []).length > 3)).toBe(true);
    // JPY has no decimals, KWD three: the document totals are written with them.
    expect(docs.some((d) => /Moneda="JPY"[^>]* Total="[0-9]+"/.test(d.xml))).toBe(true);
    expect(docs.some((d) => /Moneda="KWD"[^>]* Total="[0-9]+\.[0-9]{3}"/.test(d.xml))).toBe(true);
  });

  it('every invoice passes the SAT arithmetic checks', () => {
    expect(docs.flatMap((d) => satArithmeticErrors(d.xml).map((e) => `${d.name}: ${e}`))).toEqual([]);
  });

  it('every invoice validates against the SAT XSD (xmllint)', async () => {
    expect(await xmllintFailures(docs.map((d) => d.file))).toEqual([]);
  });

  it('every cadena is byte-identical to xsltproc with cadenaoriginal_4_0.xslt (which includes ComercioExterior20.xslt)', async () => {
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
