import fs from 'node:fs';
import path from 'node:path';
import { checkCsdPair, keyMatchesCertificate, openPrivateKey } from '../src';
import { CERTS, certInfo, PASSWORD } from './sat-dir';

describe('inspectCertificate', () => {
  it('persona moral CSD: RFC before " / ", serial as NoCertificado, dates, CSD by key usage', () => {
    const c = certInfo('EKU9003173C9-csd');
    expect(c).toMatchObject({
      rfc: 'EKU9003173C9',
      personType: 'moral',
      name: 'ESCUELA KEMPER URGATE SA DE CV',
      branch: 'Sucursal 1',
      serialHex: '3330303031303030303030353030303033343136',
      noCertificado: '30001000000500003416',
      keyUsage: ['digitalSignature', 'nonRepudiation'],
      hasExtendedKeyUsage: false,
      kind: 'csd',
    });
    expect(c.validFrom.toISOString()).toBe('2023-05-18T11:43:51.000Z');
    expect(c.validTo.toISOString()).toBe('2027-05-18T11:43:51.000Z');
    expect(c.issuer).toContain('AC UAT');
    expect(c.publicKey.asymmetricKeyType).toBe('rsa');
  });

  it('persona física CSD', () => {
    expect(certInfo('CACX7605101P8-csd')).toMatchObject({
      rfc: 'CACX7605101P8',
      personType: 'fisica',
      noCertificado: '30001000000500003316',
      kind: 'csd',
    });
  });

  it('FIELs are told apart by key usage and EKU', () => {
    expect(certInfo('EKU9003173C9-fiel')).toMatchObject({
      rfc: 'EKU9003173C9',
      kind: 'fiel',
      hasExtendedKeyUsage: true,
      keyUsage: ['digitalSignature', 'nonRepudiation', 'dataEncipherment', 'keyAgreement'],
    });
    expect(certInfo('CACX7605101P8-fiel-expired')).toMatchObject({
      kind: 'fiel',
      noCertificado: '30001000000400002300',
    });
    expect(certInfo('CACX7605101P8-fiel-expired').branch).toBeUndefined();
  });

  it('expired CSD keeps its dates for the caller to judge', () => {
    const c = certInfo('XIA190128J61-csd-expired');
    expect(c).toMatchObject({ rfc: 'XIA190128J61', kind: 'csd' });
    expect(c.validTo < new Date('2026-11-21T00:00:00Z')).toBe(true);
  });
});

describe('openPrivateKey', () => {
  const der = (name: string) => fs.readFileSync(path.join(CERTS, name));

  it('opens the encrypted PKCS#8 key and matches its certificate', () => {
    const key = openPrivateKey(der('EKU9003173C9-csd.key'), PASSWORD);
    expect(keyMatchesCertificate(der('EKU9003173C9-csd.cer'), key)).toBe(true);
    expect(
      keyMatchesCertificate(
        der('EKU9003173C9-csd.cer'),
        openPrivateKey(der('CACX7605101P8-csd.key'), PASSWORD),
      ),
    ).toBe(false);
    expect(
      keyMatchesCertificate(
        der('EKU9003173C9-csd.cer'),
        openPrivateKey(der('EKU9003173C9-fiel.key'), PASSWORD),
      ),
    ).toBe(false);
  });

  it('rejects a wrong password', () => {
    expect(() => openPrivateKey(der('EKU9003173C9-csd.key'), '12345678')).toThrow();
  });
});

describe('checkCsdPair', () => {
  const der = (name: string) => fs.readFileSync(path.join(CERTS, name));
  const now = new Date('2026-11-21T12:00:00Z');
  const codes = (cer: string, key: string, password = PASSWORD) =>
    checkCsdPair(der(cer), der(key), password, now).problems.map((p) => p.code);

  it('accepts the valid CSDs', () => {
    expect(codes('EKU9003173C9-csd.cer', 'EKU9003173C9-csd.key')).toEqual([]);
    expect(codes('CACX7605101P8-csd.cer', 'CACX7605101P8-csd.key')).toEqual([]);
  });

  it('reports each failure of the test-certs README cases', () => {
    expect(codes('EKU9003173C9-csd.cer', 'EKU9003173C9-csd.key', '12345678')).toEqual(['wrong_password']);
    expect(codes('EKU9003173C9-csd.cer', 'EKU9003173C9-fiel.key')).toEqual(['key_mismatch']);
    expect(codes('EKU9003173C9-csd.cer', 'CACX7605101P8-csd.key')).toEqual(['key_mismatch']);
    expect(codes('EKU9003173C9-fiel.cer', 'EKU9003173C9-fiel.key')).toEqual(['not_csd']);
    expect(codes('XIA190128J61-csd-expired.cer', 'XIA190128J61-csd-expired.key')).toEqual(['expired']);
    expect(codes('CACX7605101P8-fiel-expired.cer', 'CACX7605101P8-fiel-expired.key')).toEqual([
      'not_csd',
      'expired',
    ]);
    expect(
      checkCsdPair(Buffer.from('nope'), der('EKU9003173C9-csd.key'), PASSWORD, now).problems.map(
        (p) => p.code,
      ),
    ).toEqual(['invalid_certificate']);
  });
});
