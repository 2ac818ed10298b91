import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appendTfd,
  buildInvoiceXml,
  buildTfd,
  cadenaOriginal,
  parseTfd,
  sealXml,
  tfdCadena,
  verifySeal,
} from '../src';
import { RECEIVERS } from './generators';
import { loadCsd, NOW, requireTools, TFD_XSLT, BUNDLE_XSD } from './sat-dir';

const csd = loadCsd();
const issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};

describe('TimbreFiscalDigital 1.1', () => {
  beforeAll(requireTools);

  it('builds, signs, appends as last child of Complemento, parses, and matches xsltproc', () => {
    const { xml } = buildInvoiceXml(
      {
        issuer,
        receiver: RECEIVERS[0]!,
        items: [
          { productCode: '43211503', unitCode: 'H87', description: 'Laptop', quantity: 1, unitPrice: 100 },
        ],
        formaPago: '03',
      },
      { now: NOW },
    );
    const sealed = sealXml(xml, csd);
    const built = buildTfd({
      uuid: 'ab12cd34-0000-4000-8000-0123456789ab',
      fechaTimbrado: '2026-11-21T12:31:00',
      rfcProvCertif: 'AAA010101AAA',
      leyenda: 'Leyenda  de prueba',
      selloCFD: sealed.sello,
      sat: csd,
    });
    const stamped = appendTfd(sealed.xml, built.xml);
    expect(stamped.indexOf('<cfdi:Complemento><tfd:TimbreFiscalDigital')).toBeGreaterThan(0);
    expect(cadenaOriginal(stamped)).toBe(sealed.cadena);
    expect(verifySeal(stamped)).toEqual({ valid: true });
    const tfd = parseTfd(stamped)!;
    expect(tfd.uuid).toBe('AB12CD34-0000-4000-8000-0123456789AB');
    expect(tfd.selloCFD).toBe(sealed.sello);
    expect(tfdCadena(stamped)).toBe(built.cadena);
    expect(built.cadena).toContain('|Leyenda de prueba|');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-tfd-'));
    fs.writeFileSync(path.join(dir, 'stamped.xml'), stamped);
    execFileSync('xmllint', ['--noout', '--schema', BUNDLE_XSD, path.join(dir, 'stamped.xml')], {
      stdio: 'pipe',
    });
    const tfdOnly = execFileSync('xmllint', [
      '--xpath',
      '//*[local-name()="TimbreFiscalDigital"]',
      path.join(dir, 'stamped.xml'),
    ]);
    fs.writeFileSync(path.join(dir, 'tfd.xml'), tfdOnly);
    const reference = execFileSync('xsltproc', [TFD_XSLT, path.join(dir, 'tfd.xml')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(built.cadena).toBe(reference);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('appends after an existing complement (Pagos) and refuses a second TFD', () => {
    const pagoLike =
      '<?xml version="1.0"?><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4"><cfdi:Complemento><x:Other xmlns:x="urn:x"/></cfdi:Complemento><cfdi:Addenda/></cfdi:Comprobante>';
    const built = buildTfd({
      uuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      fechaTimbrado: '2026-11-21T12:31:00',
      rfcProvCertif: 'AAA010101AAA',
      selloCFD: 'abc',
      sat: csd,
    });
    const stamped = appendTfd(pagoLike, built.xml);
    expect(stamped).toMatch(
      /<x:Other xmlns:x="urn:x"\/><tfd:TimbreFiscalDigital [^>]*\/><\/cfdi:Complemento><cfdi:Addenda\/>/,
    );
    expect(() => appendTfd(stamped, built.xml)).toThrow('already has a TimbreFiscalDigital');
    const noComplement = appendTfd(
      '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4"><cfdi:Conceptos/></cfdi:Comprobante>',
      built.xml,
    );
    expect(noComplement).toMatch(
      /<cfdi:Conceptos\/><cfdi:Complemento><tfd:TimbreFiscalDigital [^>]*\/><\/cfdi:Complemento><\/cfdi:Comprobante>$/,
    );
  });
});
