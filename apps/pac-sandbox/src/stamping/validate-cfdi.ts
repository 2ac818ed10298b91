import type { CertificateInfo, SealVerification } from '@cfdi/cfdi';
import { SAT_ORGANIZATION } from '../sat/forge-certificate';
import { FECHA_PATTERN, mexicoInstant, mexicoLocal, wallClockMs } from '../time/mexico-time';
import { incidence, type Incidencia } from './incidence-codes';
import { inspectCertificateBase64 } from './certificate-cache';
import { magicTrigger } from './magic-triggers';
import type { ComprobanteFacts, ReadResult } from './read-comprobante';
import { verifySealWithKey } from './verify-seal';

const HOURS_72 = 72 * 3_600_000;
/**
 * Fecha is wall-clock time at the place of issue, compared here with Mexico City time: Quintana
 * Roo (UTC−5) runs one hour ahead, so up to one hour "in the future" is a legitimate Fecha.
 */
const FUTURE_TOLERANCE_MS = 3_600_000;

export interface ValidationContext {
  now: Date;
  /**
   * The issuer's registration status (`add`/`edit`), null when it has none (702); leave it out when
   * registration is not required.
   */
  registrationStatus?: string | null;
  /** Optional XSD check (xmllint); returns a problem description or undefined. */
  validateSchema?: (xml: string) => Promise<string | undefined>;
}

export type Validation = { ok: true; facts: ComprobanteFacts } | { ok: false; incidencia: Incidencia };

const fail = (code: string, extraInfo?: string): Validation => ({
  ok: false,
  incidencia: incidence(code, extraInfo),
});

/**
 * The PAC's checks, in the order a PAC runs them: structure, no previous TFD, date window,
 * certificate, seal, registration; then the sandbox's magic triggers. First failure wins.
 */
export async function validateCfdi(
  xml: string,
  read: ReadResult,
  ctx: ValidationContext,
): Promise<Validation> {
  if (!read.ok) return fail(read.code, read.detail);
  const f = read.facts;
  if (ctx.validateSchema) {
    const problem = await ctx.validateSchema(xml);
    if (problem) return fail('301', problem);
  }
  if (f.hasTfd) return fail('707');
  if (!FECHA_PATTERN.test(f.fecha)) return fail('401', 'Fecha no tiene el formato AAAA-MM-DDThh:mm:ss');
  const age = wallClockMs(mexicoLocal(ctx.now)) - wallClockMs(f.fecha);
  if (age > HOURS_72)
    return fail('401', 'El rango de la fecha de generación no debe de ser mayor a 72 horas');
  if (age < -FUTURE_TOLERANCE_MS)
    return fail('401', 'La fecha de generación es posterior a la fecha de certificación');

  let cert: CertificateInfo;
  try {
    cert = inspectCertificateBase64(f.certificado);
  } catch {
    return fail('308', 'Certificado no es un certificado X.509 en base64');
  }
  if (!cert.issuer.split('\n').includes(`O=${SAT_ORGANIZATION}`)) return fail('308');
  if (cert.noCertificado !== f.noCertificado) return fail('712');
  if (cert.kind !== 'csd') return fail('306');
  if (cert.rfc !== f.emisorRfc) return fail('303', `el certificado es de ${cert.rfc}`);
  if (cert.validTo.getTime() < ctx.now.getTime())
    return fail('304', `el CSD venció ${cert.validTo.toISOString()}`);
  const issuedAt = mexicoInstant(f.fecha).getTime();
  if (issuedAt < cert.validFrom.getTime() || issuedAt > cert.validTo.getTime()) return fail('305');
  let seal: SealVerification;
  try {
    seal = verifySealWithKey(xml, f.sello, cert.publicKey);
  } catch (err) {
    // The cadena cannot be built from this structure (e.g. an unsupported complement).
    return fail('301', `cadena original: ${(err as Error).message}`);
  }
  if (!seal.valid) return fail('302', seal.reason);

  if (ctx.registrationStatus !== undefined) {
    if (ctx.registrationStatus === null)
      return fail('702', `${f.emisorRfc} no está registrado (registration add)`);
    if (ctx.registrationStatus !== 'A') return fail('701');
  }
  const trigger = magicTrigger(f.conceptos);
  if (trigger) return { ok: false, incidencia: trigger };
  return { ok: true, facts: f };
}
