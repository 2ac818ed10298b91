import { X509Certificate, type KeyObject } from 'node:crypto';
import { hasExtension, keyUsage, OID_EXT_KEY_USAGE_HEX } from './der';

export interface CertificateInfo {
  /** Taxpayer RFC: x500UniqueIdentifier up to " / " (the rest is the legal representative). */
  rfc: string;
  /** 12 characters = persona moral, 13 = persona física. */
  personType: 'moral' | 'fisica';
  /** Subject CN, e.g. "ESCUELA KEMPER URGATE SA DE CV" (the CFDI Nombre drops the suffix). */
  name: string;
  /** Subject OU: the branch name of a CSD; FIELs have none. */
  branch?: string;
  serialHex: string;
  /** 20-digit NoCertificado: the serial's hex bytes read as ASCII digits. */
  noCertificado: string;
  validFrom: Date;
  validTo: Date;
  issuer: string;
  keyUsage: string[];
  hasExtendedKeyUsage: boolean;
  /** CSD = KeyUsage exactly {digitalSignature, nonRepudiation} and no EKU (test-certs README). */
  kind: 'csd' | 'fiel';
  publicKey: KeyObject;
  /** Base64 of the DER, single line: the Comprobante@Certificado value. */
  base64: string;
}

function subjectField(subject: string, name: string): string | undefined {
  const line = subject.split('\n').find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1);
}

export function noCertificadoFromSerial(serialHex: string): string {
  return Buffer.from(serialHex.length % 2 ? `0${serialHex}` : serialHex, 'hex').toString('latin1');
}

export function inspectCertificate(der: Buffer): CertificateInfo {
  const cert = new X509Certificate(der);
  const uid = subjectField(cert.subject, 'x500UniqueIdentifier') ?? '';
  const rfc = (uid.split(' / ')[0] ?? '').trim();
  const usage = keyUsage(der);
  const eku = hasExtension(der, OID_EXT_KEY_USAGE_HEX);
  const isCsd =
    usage.length === 2 && usage.includes('digitalSignature') && usage.includes('nonRepudiation') && !eku;
  const branch = subjectField(cert.subject, 'OU');
  return {
    rfc,
    personType: rfc.length === 12 ? 'moral' : 'fisica',
    name: subjectField(cert.subject, 'CN') ?? '',
    ...(branch !== undefined ? { branch } : {}),
    serialHex: cert.serialNumber,
    noCertificado: noCertificadoFromSerial(cert.serialNumber),
    validFrom: new Date(cert.validFrom),
    validTo: new Date(cert.validTo),
    issuer: cert.issuer,
    keyUsage: usage,
    hasExtendedKeyUsage: eku,
    kind: isCsd ? 'csd' : 'fiel',
    publicKey: cert.publicKey,
    base64: der.toString('base64'),
  };
}

/** True when the private key belongs to the certificate. */
export function keyMatchesCertificate(der: Buffer, privateKey: KeyObject): boolean {
  return new X509Certificate(der).checkPrivateKey(privateKey);
}
