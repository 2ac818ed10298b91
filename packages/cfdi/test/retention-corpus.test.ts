import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendTfd, buildRetentionXml, buildTfd, sealXml, validateRetentionRequest, type Csd } from '../src';
import { ISSUERS } from './generators';
import { retention } from './retention-generators';
import { loadCsd, NOW, requireTools, TFD_XSLT, XML_DIR } from './sat-dir';
import { sealFailures, xmllintFailures, xsltprocMismatches } from './tools';

jest.setTimeout(300_000);

/**
 * 300 generated withholding certificates (fixed seed), every tenth stamped with a mock TFD: each passes the API's
 * rules, and the SAT's tools check them in batches (xmllint with retencionpagov2.xsd plus the TFD schema, xsltproc
 * with retenciones.xslt, openssl for the seal).
 */
const SEED = 20261128;
const CERTIFICATES = 300;
const RETENCIONES_DIR = path.join(XML_DIR, 'www.sat.gob.mx/esquemas/retencionpago/2');
const RETENCIONES_XSLT = path.join(RETENCIONES_DIR, 'retenciones.xslt');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-retention-corpus-'));
const csds = new Map<string, Csd>(ISSUERS.map((i) => [i.csd, loadCsd(i.csd)]));

/** retencionpagov2.xsd declares Complemento with a strict xs:any: the TFD's schema has to be loaded beside it. */
function bundleXsd(): string {
  const file = path.join(dir, 'retenciones-bundle.xsd');
  const tfd = path.join(
    XML_DIR,
    'www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd',
  );
  fs.writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local:retenciones-bundle">
  <xs:import namespace="http://www.sat.gob.mx/esquemas/retencionpago/2" schemaLocation="${path.join(RETENCIONES_DIR, 'retencionpagov2.xsd')}"/>
  <xs:import namespace="http://www.sat.gob.mx/TimbreFiscalDigital" schemaLocation="${tfd}"/>
</xs:schema>`,
  );
  return file;
}

const docs: Array<{ name: string; file: string; csd: string; xml: string; cadena: string; sello: string }> =
  [];
const tfds: Array<{ file: string; cadena: string }> = [];
const generated = fc.sample(retention, { seed: SEED, numRuns: CERTIFICATES });

beforeAll(() => {
  requireTools();
  generated.forEach(({ input, csd }, i) => {
    const sealed = sealXml(buildRetentionXml(input, { now: NOW }).xml, csds.get(csd)!);
    let xml = sealed.xml;
    if (i % 10 === 0) {
      const tfd = buildTfd({
        uuid: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
        fechaTimbrado: '2026-11-21T12:31:00',
        rfcProvCertif: 'AAA010101AAA',
        selloCFD: sealed.sello,
        sat: csds.get(csd)!,
      });
      const tfdFile = path.join(dir, `tfd-${i}.xml`);
      fs.writeFileSync(tfdFile, tfd.xml);
      tfds.push({ file: tfdFile, cadena: tfd.cadena });
      xml = appendTfd(xml, tfd.xml);
    }
    const name = `${String(i).padStart(4, '0')}-R`;
    const file = path.join(dir, `${name}.xml`);
    fs.writeFileSync(file, xml);
    docs.push({ name, file, csd, xml, cadena: sealed.cadena, sello: sealed.sello });
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('Retenciones 2.0 corpus (fixed seed)', () => {
  it('covers both receiver kinds, every CveRetenc and TipoPagoRet, optional fields present and absent', () => {
    expect(docs.length).toBeGreaterThanOrEqual(200);
    const values = (attr: string) =>
      new Set(
        docs.flatMap((d) => [...d.xml.matchAll(new RegExp(` ${attr}="([^"]*)"`, 'g'))].map((m) => m[1])),
      );
    expect(values('NacionalidadR')).toEqual(new Set(['Nacional', 'Extranjero']));
    expect(values('CveRetenc').size).toBe(28);
    expect(values('TipoPagoRet').size).toBe(4);
    for (const needle of [
      'FolioInt=',
      'DescRetenc=',
      'CurpR=',
      'NumRegIdTribR=',
      'UtilidadBimestral=',
      'BaseRet=',
      'CfdiRetenRelacionados',
      '&amp;',
      '&lt;',
      'tfd:TimbreFiscalDigital',
    ])
      expect(docs.some((d) => d.xml.includes(needle))).toBe(true);
    expect(docs.some((d) => !d.xml.includes('FolioInt='))).toBe(true);
    expect(docs.some((d) => !d.xml.includes('ImpRetenidos') && d.xml.includes('MontoTotRet="0.00"'))).toBe(
      true,
    );
  });

  it('every generated request passes the rules the API checks', () => {
    const refused = generated
      .map(({ input }, i) => ({
        i,
        issues: validateRetentionRequest(input, { currentYear: 2026, issuerRfc: input.issuer.rfc }),
      }))
      .filter((r) => r.issues.length);
    expect(refused).toEqual([]);
  });

  it('every certificate validates against retencionpagov2.xsd (xmllint)', async () => {
    expect(
      await xmllintFailures(
        docs.map((d) => d.file),
        bundleXsd(),
      ),
    ).toEqual([]);
  });

  it('every cadena is byte-identical to xsltproc with retenciones.xslt, stamped or not', async () => {
    const files = docs.map((d) => d.file);
    expect(
      await xsltprocMismatches(files, new Map(docs.map((d) => [d.file, d.cadena])), RETENCIONES_XSLT),
    ).toEqual([]);
  });

  it('every TFD cadena matches cadenaoriginal_TFD_1_1.xslt', async () => {
    expect(tfds.length).toBe(CERTIFICATES / 10);
    expect(
      await xsltprocMismatches(
        tfds.map((t) => t.file),
        new Map(tfds.map((t) => [t.file, t.cadena])),
        TFD_XSLT,
      ),
    ).toEqual([]);
  });

  it('every seal verifies with openssl dgst -sha256 -verify and with verifySeal', async () => {
    expect(await sealFailures(dir, docs, csds)).toEqual([]);
  });
});
