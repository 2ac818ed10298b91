import { createSign, createVerify, X509Certificate, type KeyObject } from 'node:crypto';
import { cadenaOfTree, cadenaOriginal } from '../cadena/cadena-original';
import { parseTree } from '../cadena/fast-xml';
import { setRootAttributes } from '../xml/root-attributes';
import { noCertificadoFromSerial } from './certificate';

export interface Csd {
  certificateDer: Buffer;
  privateKey: KeyObject;
}

export interface SealResult {
  xml: string;
  cadena: string;
  sello: string;
  noCertificado: string;
}

/** RSA PKCS#1 v1.5 with SHA-256 over the UTF-8 bytes of a cadena, base64 (cfdi40.md §3.3). */
export function signCadena(cadena: string, privateKey: KeyObject): string {
  return createSign('RSA-SHA256').update(cadena, 'utf8').sign(privateKey, 'base64');
}

/** NoCertificado and Certificado of a certificate, parsed once per certificate buffer (callers keep their CSD). */
const certificateAttributes = new WeakMap<Buffer, { NoCertificado: string; Certificado: string }>();

function attributesOf(certificateDer: Buffer): { NoCertificado: string; Certificado: string } {
  let attributes = certificateAttributes.get(certificateDer);
  if (!attributes) {
    attributes = {
      NoCertificado: noCertificadoFromSerial(new X509Certificate(certificateDer).serialNumber),
      Certificado: certificateDer.toString('base64'),
    };
    certificateAttributes.set(certificateDer, attributes);
  }
  return attributes;
}

/**
 * Seals a CFDI: sets NoCertificado and Certificado first (NoCertificado is part of the
 * cadena), computes the cadena from the resulting document, signs it and sets Sello.
 */
export function sealXml(xml: string, csd: Csd): SealResult {
  const certificate = attributesOf(csd.certificateDer);
  const noCertificado = certificate.NoCertificado;
  const withCert = setRootAttributes(xml, certificate);
  const cadena = cadenaOriginal(withCert);
  const sello = signCadena(cadena, csd.privateKey);
  return { xml: setRootAttributes(withCert, { Sello: sello }), cadena, sello, noCertificado };
}

export interface SealVerification {
  valid: boolean;
  reason?: string;
}

/** Recomputes the cadena and checks Sello against the embedded Certificado (CFDI40102). */
export function verifySeal(xml: string): SealVerification {
  let root;
  try {
    root = parseTree(xml);
  } catch (err) {
    return { valid: false, reason: (err as Error).message };
  }
  const sello = root.attributes.get('Sello');
  const certificado = root.attributes.get('Certificado');
  const noCertificado = root.attributes.get('NoCertificado');
  if (!sello) return { valid: false, reason: 'Sello is missing' };
  if (!certificado) return { valid: false, reason: 'Certificado is missing' };
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(Buffer.from(certificado, 'base64'));
  } catch {
    return { valid: false, reason: 'Certificado is not a DER X.509 certificate in base64' };
  }
  if (noCertificadoFromSerial(cert.serialNumber) !== noCertificado) {
    return { valid: false, reason: 'NoCertificado does not match the certificate serial number' };
  }
  let cadena: string;
  try {
    cadena = cadenaOfTree(root);
  } catch (err) {
    return { valid: false, reason: (err as Error).message };
  }
  const ok = createVerify('RSA-SHA256').update(cadena, 'utf8').verify(cert.publicKey, sello, 'base64');
  return ok ? { valid: true } : { valid: false, reason: 'Sello does not match the cadena original' };
}
