import { buildCancelacionXml, signCancelacion } from '@cfdi/pac';
import { buildRetentionXml, parseTfd, sealXml, tfdCadena, verifySeal, type RetentionInput } from '@cfdi/cfdi';
import { defaultSatDir } from '@cfdi/config';
import { execFileSync } from 'node:child_process';
import { createVerify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sealedInvoice } from './helpers/cfdi-fixture';
import { PINNED_NOW, startSandbox, type Harness } from './helpers/harness';
import { testCsd } from './helpers/sat-files';

const csd = testCsd('EKU9003173C9-csd');
const XML_DIR = path.join(defaultSatDir(), 'xml');
let h: Harness;
let satCert: X509Certificate;

const certificate = (folioInt: string): RetentionInput => ({
  issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
  folioInt,
  cveRetenc: '14',
  receiver: {
    nacionalidad: 'Nacional',
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
  },
  period: { mesIni: 1, mesFin: 12, ejercicio: 2025 },
  // MontoTotRet over 1,000 MXN: RMF 2.7.1.35-I does not apply, only VI (retenciones) spares the acceptance.
  totals: { montoTotGrav: '20000', montoTotExent: '0' },
  withholdings: [{ impuestoRet: '001', baseRet: '20000', montoRet: '2000', tipoPagoRet: '01' }],
});
const sealedRetention = (folioInt: string) =>
  sealXml(
    buildRetentionXml(certificate(folioInt), { now: new Date(PINNED_NOW.getTime() - 5 * 60_000) }).xml,
    csd,
  ).xml;

/** retencionpagov2.xsd with the TFD schema beside it (its Complemento is a strict xs:any). */
function xsdErrors(xml: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retention-xsd-'));
  const retenciones = path.join(XML_DIR, 'www.sat.gob.mx/esquemas/retencionpago/2/retencionpagov2.xsd');
  const tfd = path.join(
    XML_DIR,
    'www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd',
  );
  fs.writeFileSync(
    path.join(dir, 'bundle.xsd'),
    `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local:bundle">
<xs:import namespace="http://www.sat.gob.mx/esquemas/retencionpago/2" schemaLocation="${retenciones}"/>
<xs:import namespace="http://www.sat.gob.mx/TimbreFiscalDigital" schemaLocation="${tfd}"/></xs:schema>`,
  );
  fs.writeFileSync(path.join(dir, 'doc.xml'), xml);
  try {
    execFileSync(
      'xmllint',
      ['--noout', '--schema', path.join(dir, 'bundle.xsd'), path.join(dir, 'doc.xml')],
      {
        stdio: 'pipe',
      },
    );
    return '';
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  // RMF 2.7.1.35-IX off: a retention is cancelled without acceptance by its own case (VI), not by the next-day rule.
  h = await startSandbox({ nextBusinessDayRule: false });
  await h.pac.registerCsd({ rfc: 'EKU9003173C9', certificateDer: csd.certificateDer });
  const { body } = await h.control<{ certificate: string }>('GET', '/sandbox/sat-certificate');
  satCert = new X509Certificate(Buffer.from(body.certificate, 'base64'));
});
afterAll(() => h.close());

describe('retentions service (Finkok-style stamp / stamped)', () => {
  test('stamps a Retenciones 2.0 certificate: TFD 1.1 in retenciones:Complemento, valid per the XSD, seals verify', async () => {
    const xml = sealedRetention('R1');
    const result = await h.pac.stampRetention(xml);
    if (result.outcome !== 'stamped') throw new Error(JSON.stringify(result));
    expect(result.previouslyStamped).toBe(false);
    expect(result.xml).toContain('<retenciones:Complemento><tfd:TimbreFiscalDigital');
    expect(xsdErrors(result.xml)).toBe('');
    const tfd = parseTfd(result.xml)!;
    expect(tfd.uuid).toBe(result.uuid);
    expect(tfd.selloCFD).toBe(/ Sello="([^"]+)"/.exec(xml)![1]);
    expect(
      createVerify('RSA-SHA256')
        .update(tfdCadena(result.xml), 'utf8')
        .verify(satCert.publicKey, tfd.selloSAT, 'base64'),
    ).toBe(true);
    expect(verifySeal(result.xml).valid).toBe(true);
  });

  test('the same bytes twice: the original stamp (307 with data); `stamped` finds it', async () => {
    const xml = sealedRetention('R2');
    const first = await h.pac.stampRetention(xml);
    const second = await h.pac.stampRetention(xml);
    expect(second).toMatchObject({ outcome: 'stamped', previouslyStamped: true });
    expect(second.outcome === 'stamped' && first.outcome === 'stamped' && second.uuid === first.uuid).toBe(
      true,
    );
    expect(await h.pac.lookupStampedRetention(xml)).toMatchObject({ outcome: 'stamped' });
  });

  test('a broken seal is 302; a CFDI on the retentions service and a retention on the stamp service are 301', async () => {
    const tampered = sealedRetention('R3').replace('MontoTotGrav="20000.00"', 'MontoTotGrav="20001.00"');
    expect(await h.pac.stampRetention(tampered)).toMatchObject({ outcome: 'rejected', code: '302' });
    const invoice = sealedInvoice({ fecha: h.fecha(), folio: 'RX-1', csd });
    expect(await h.pac.stampRetention(invoice)).toMatchObject({ outcome: 'rejected', code: '301' });
    expect(await h.pac.stamp(sealedRetention('R4'))).toMatchObject({ outcome: 'rejected', code: '301' });
  });

  test('cancel_signature on the retentions service: 201 without acceptance, 202 on repeat; each service cancels its own', async () => {
    const stamped = await h.pac.stampRetention(sealedRetention('R5'));
    if (stamped.outcome !== 'stamped') throw new Error(JSON.stringify(stamped));
    const request = (uuid: string) =>
      signCancelacion(
        buildCancelacionXml({
          rfcEmisor: 'EKU9003173C9',
          fecha: h.fecha(0),
          folios: [{ uuid, motivo: '02' }],
        }),
        csd,
      );
    // The cancel service does not know a retention, nor the retentions service a CFDI (205).
    expect(await h.pac.cancel(request(stamped.uuid))).toMatchObject({ folios: [{ estatusUuid: '205' }] });
    const invoice = await h.pac.stamp(sealedInvoice({ fecha: h.fecha(), folio: 'RX-2', csd }));
    if (invoice.outcome !== 'stamped') throw new Error(JSON.stringify(invoice));
    expect(await h.pac.cancelRetention(request(invoice.uuid))).toMatchObject({
      folios: [{ estatusUuid: '205' }],
    });

    expect(await h.pac.cancelRetention(request(stamped.uuid))).toMatchObject({
      outcome: 'submitted',
      folios: [{ uuid: stamped.uuid, estatusUuid: '201', estatusCancelacion: 'Cancelado sin aceptación' }],
    });
    expect(await h.pac.cancelRetention(request(stamped.uuid))).toMatchObject({
      folios: [{ estatusUuid: '202' }],
    });
  });
});
