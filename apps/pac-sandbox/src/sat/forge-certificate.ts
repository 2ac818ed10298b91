import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

export interface CertificateSpec {
  /** 20 ASCII digits: becomes the serial, so NoCertificado reads back as these digits. */
  noCertificado: string;
  subject: forge.pki.CertificateField[];
  issuer: forge.pki.CertificateField[];
  notBefore: Date;
  notAfter: Date;
  /** `csd` = digitalSignature + nonRepudiation only; `fiel` adds encipherment and an EKU, as SAT's FIELs. */
  profile: 'csd' | 'fiel' | 'authority';
}

export interface GeneratedCertificate {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

/** X.509 certificates with SAT's shapes, signed by a throwaway key (self-issued, RSA-2048, SHA-256). */
export function generateCertificate(spec: CertificateSpec): GeneratedCertificate {
  if (!/^\d{20}$/.test(spec.noCertificado)) throw new RangeError('noCertificado must be 20 digits');
  // Node generates the RSA key (native, ~50 ms); forge only assembles and signs the certificate.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = Buffer.from(spec.noCertificado, 'ascii').toString('hex');
  cert.validity.notBefore = spec.notBefore;
  cert.validity.notAfter = spec.notAfter;
  cert.setSubject(spec.subject);
  cert.setIssuer(spec.issuer);
  cert.setExtensions(extensionsFor(spec.profile));
  const forgeKey = forge.pki.privateKeyFromPem(
    privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  );
  cert.sign(forgeKey, forge.md.sha256.create());
  const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary');
  return { certificateDer: der, privateKey };
}

function extensionsFor(profile: CertificateSpec['profile']): object[] {
  if (profile === 'authority') {
    return [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, keyCertSign: true },
    ];
  }
  const base = [{ name: 'basicConstraints', cA: false, critical: true }];
  if (profile === 'csd') return [...base, { name: 'keyUsage', digitalSignature: true, nonRepudiation: true }];
  return [
    ...base,
    {
      name: 'keyUsage',
      digitalSignature: true,
      nonRepudiation: true,
      dataEncipherment: true,
      keyAgreement: true,
    },
    { name: 'extKeyUsage', emailProtection: true, clientAuth: true },
  ];
}

/** Issuer DN of SAT's test CA ("AC UAT"); the sandbox recognises SAT issuers by this organisation. */
export const SAT_ORGANIZATION = 'SERVICIO DE ADMINISTRACION TRIBUTARIA';

export const TEST_CA_ISSUER: forge.pki.CertificateField[] = [
  { shortName: 'CN', value: 'AC UAT' },
  { shortName: 'O', value: SAT_ORGANIZATION },
  { shortName: 'OU', value: 'SAT-IES Authority' },
];

/** Subject of a taxpayer CSD/FIEL as SAT issues them: RFC in x500UniqueIdentifier (2.5.4.45). */
export function taxpayerSubject(rfc: string, name: string, branch?: string): forge.pki.CertificateField[] {
  return [
    { shortName: 'CN', value: name },
    { name: 'organizationName', value: name },
    // x500UniqueIdentifier as SAT writes it: a PrintableString (forge's typings only allow a Class here).
    {
      type: '2.5.4.45',
      value: rfc,
      valueTagClass: forge.asn1.Type.PRINTABLESTRING as unknown as forge.asn1.Class,
    },
    ...(branch ? [{ shortName: 'OU', value: branch }] : []),
  ];
}
