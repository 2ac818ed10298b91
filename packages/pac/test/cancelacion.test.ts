import { defaultSatDir } from '@cfdi/config';
import { openPrivateKey } from '@cfdi/cfdi';
import { DOMParser } from '@xmldom/xmldom';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildCancelacionXml, CANCELACION_NS } from '../src/cancellation/cancelacion-xml';
import { signCancelacion } from '../src/cancellation/sign-cancelacion';
import { verifyEnvelopedSignature } from '../src/cancellation/verify-signature';

const certs = path.join(defaultSatDir(), 'test-certs');
const certificateDer = fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.cer'));
const privateKey = openPrivateKey(fs.readFileSync(path.join(certs, 'EKU9003173C9-csd.key')), '12345678a');
const UUID = 'a1b2c3d4-1111-4222-8333-444455556666';
const REPLACEMENT = 'B1B2C3D4-1111-4222-8333-444455556666';

const unsigned = () =>
  buildCancelacionXml({
    rfcEmisor: 'EKU9003173C9',
    fecha: '2026-11-21T12:00:00',
    folios: [
      { uuid: UUID, motivo: '01', folioSustitucion: REPLACEMENT },
      { uuid: REPLACEMENT, motivo: '02' },
    ],
  });

/** Independent verifier: xmlsec1 with the certificate given explicitly (the SAT test CA is not trusted here). */
function xmlsecVerify(xml: string): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cancelacion-'));
  try {
    fs.writeFileSync(path.join(dir, 'cert.pem'), new X509Certificate(certificateDer).toString());
    fs.writeFileSync(path.join(dir, 'doc.xml'), xml);
    execFileSync(
      'xmlsec1',
      ['--verify', '--insecure', '--pubkey-cert-pem', path.join(dir, 'cert.pem'), path.join(dir, 'doc.xml')],
      { stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('Cancelacion request', () => {
  test('SAT shape: namespace, RfcEmisor, Fecha, one Folios per UUID with Motivo and FolioSustitucion', () => {
    const root = new DOMParser().parseFromString(unsigned(), 'text/xml').documentElement!;
    expect([root.namespaceURI, root.localName]).toEqual([CANCELACION_NS, 'Cancelacion']);
    expect(root.getAttribute('RfcEmisor')).toBe('EKU9003173C9');
    expect(root.getAttribute('Fecha')).toBe('2026-11-21T12:00:00');
    const folios = Array.from(root.getElementsByTagNameNS(CANCELACION_NS, 'Folio'));
    expect(
      folios.map((f) => [
        f.parentNode?.localName,
        f.getAttribute('UUID'),
        f.getAttribute('Motivo'),
        f.getAttribute('FolioSustitucion'),
      ]),
    ).toEqual([
      ['Folios', UUID.toUpperCase(), '01', REPLACEMENT],
      ['Folios', REPLACEMENT, '02', null],
    ]);
  });

  test('motive 01 without FolioSustitucion is refused before anything is signed', () => {
    expect(() =>
      buildCancelacionXml({
        rfcEmisor: 'EKU9003173C9',
        fecha: '2026-11-21T12:00:00',
        folios: [{ uuid: UUID, motivo: '01' }],
      }),
    ).toThrow(/FolioSustitucion/);
  });

  test('enveloped XML-DSig (C14N, RSA-SHA1, SHA-1) with X509IssuerSerial and X509Certificate verifies with xmlsec1', () => {
    const signed = signCancelacion(unsigned(), { certificateDer, privateKey });
    expect(signed).toContain('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">');
    expect(signed).toContain(
      '<CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>',
    );
    expect(signed).toContain('<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>');
    expect(signed).toContain('<DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/>');
    expect(signed).toContain(
      '<Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>',
    );
    const serial = BigInt(`0x${new X509Certificate(certificateDer).serialNumber}`).toString(10);
    expect(signed).toContain(`<X509SerialNumber>${serial}</X509SerialNumber>`);
    expect(signed).toContain('<X509IssuerName>');
    expect(signed).toContain(`<X509Certificate>${certificateDer.toString('base64')}</X509Certificate>`);
    expect(signed).not.toMatch(/PRIVATE KEY/);

    expect(xmlsecVerify(signed)).toBe(true);
    expect(verifyEnvelopedSignature(signed)).toMatchObject({ valid: true });
  });

  test('any change after signing breaks the signature (xmlsec1 and our verifier agree)', () => {
    const tampered = signCancelacion(unsigned(), { certificateDer, privateKey }).replace(
      'Motivo="02"',
      'Motivo="03"',
    );
    expect(xmlsecVerify(tampered)).toBe(false);
    expect(verifyEnvelopedSignature(tampered)).toMatchObject({ valid: false });
  });
});
