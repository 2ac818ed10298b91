import { inspectCertificate, type CertificateInfo } from '@cfdi/cfdi';
import { verifyEnvelopedSignature } from '@cfdi/pac';
import type { SatCredentials } from '../sat/sat-credentials';
import type { CancellationRecord, CancellationStore } from '../storage/cancellations';
import type { StampRecord, StampStore } from '../storage/stamps';
import { mexicoLocal } from '../time/mexico-time';
import { buildAcuse } from './acuse';
import type { StampedDocument } from '../stamping/stamp-service';
import { RETENTION_TYPE } from '../stamping/read-retenciones';
import { requiresAcceptance } from './cancelability';
import { readCancelacion, type CancelacionRequest } from './read-cancelacion';
import { ESTATUS_CANCELACION, satStatusOf, settle, type SatStatus, type SettleOptions } from './sat-status';

export interface CancelServiceDeps {
  stamps: StampStore;
  cancellations: CancellationStore;
  sat: SatCredentials;
  now: () => Date;
  settle: SettleOptions;
  /** RMF 2.7.1.35-IX: "cancelled by the business day after issuance" needs no acceptance. */
  nextBusinessDayRule: boolean;
}

export interface FolioAnswer {
  uuid: string;
  estatusUuid: string;
  estatusCancelacion: string;
}

export type CancelOutcome =
  | { kind: 'error'; code: string; message: string }
  | { kind: 'submitted'; fecha: string; rfcEmisor: string; folios: FolioAnswer[]; acuse: string };

export type ReceiverAnswer =
  | { ok: true; uuid: string; status: SatStatus }
  | { ok: false; code: '1001' | '1002' | '1005'; message: string };

const MOTIVOS = new Set(['01', '02', '03', '04']);

export class CancelService {
  constructor(private readonly deps: CancelServiceDeps) {}

  /**
   * Finkok `cancel_signature`: verifies the issuer's signed request and answers per UUID. Each service cancels its own
   * documents: a retention's UUID is unknown (205) to the cancel service, a CFDI's to the retentions service.
   */
  async cancel(signedXml: string, document: StampedDocument = 'cfdi'): Promise<CancelOutcome> {
    const request = readCancelacion(signedXml);
    if (!request)
      return { kind: 'error', code: '301', message: 'XML mal formado: no es una solicitud Cancelacion' };
    const signature = verifyEnvelopedSignature(signedXml);
    if (!signature.valid)
      return { kind: 'error', code: '302', message: `Sello mal formado o inválido: ${signature.reason}` };
    let cert: CertificateInfo;
    try {
      cert = inspectCertificate(signature.certificateDer);
    } catch {
      return { kind: 'error', code: '302', message: 'Sello mal formado o inválido: certificado ilegible' };
    }
    const now = this.deps.now();
    if (cert.rfc !== request.rfcEmisor)
      return { kind: 'error', code: '303', message: 'Sello no corresponde al RfcEmisor' };
    if (cert.kind !== 'csd')
      return { kind: 'error', code: '306', message: 'El certificado no es de tipo CSD' };
    if (cert.validTo < now || cert.validFrom > now)
      return { kind: 'error', code: '304', message: 'Certificado revocado o caduco' };

    const fecha = mexicoLocal(now);
    const decisions: FolioAnswer[] = [];
    const claimed: string[] = [];
    for (const folio of request.folios) {
      const decision = await this.decide(request, folio, now, document);
      if (!decision.record) {
        decisions.push(decision);
      } else if (await this.deps.cancellations.claim(decision.record)) {
        claimed.push(decision.uuid);
        decisions.push(decision);
      } else {
        // A concurrent request for the same UUID won: this one is "previously requested".
        const current = await this.deps.cancellations.find(decision.uuid);
        decisions.push({
          ...decision,
          estatusUuid: '202',
          estatusCancelacion: current ? ESTATUS_CANCELACION[current.status] : '',
        });
      }
    }
    const acuse = buildAcuse(
      {
        fecha,
        rfcEmisor: request.rfcEmisor,
        folios: decisions.map((d) => ({ uuid: d.uuid, estatusUuid: d.estatusUuid })),
      },
      this.deps.sat,
    );
    for (const uuid of claimed) await this.deps.cancellations.setAcuse(uuid, acuse, fecha);
    const folios = decisions.map(({ uuid, estatusUuid, estatusCancelacion }) => ({
      uuid,
      estatusUuid,
      estatusCancelacion,
    }));
    return { kind: 'submitted', fecha, rfcEmisor: request.rfcEmisor, folios, acuse };
  }

  private async decide(
    request: CancelacionRequest,
    folio: CancelacionRequest['folios'][number],
    now: Date,
    document: StampedDocument,
  ): Promise<FolioAnswer & { record?: Omit<CancellationRecord, 'requestCount' | 'acuse' | 'acuseFecha'> }> {
    const answer = (estatusUuid: string, estatusCancelacion = '') => ({
      uuid: folio.uuid,
      estatusUuid,
      estatusCancelacion,
    });
    const stamp = await this.deps.stamps.findByUuid(folio.uuid);
    if (!stamp || (stamp.tipoDeComprobante === RETENTION_TYPE) !== (document === 'retenciones'))
      return answer('205');
    if (stamp.emisorRfc !== request.rfcEmisor) return answer('203');
    if (!(await this.validMotive(folio, stamp))) return answer('207');
    const existing = await this.current(stamp, now);
    if (existing && existing.status !== 'rechazada')
      return answer('202', ESTATUS_CANCELACION[existing.status]);
    const blocking = (await this.deps.stamps.validReferrers(folio.uuid)).filter(
      // Motive 01: the replacement itself (TipoRelacion 04) does not block the substitution.
      (r) => !(folio.motivo === '01' && r.uuid === folio.folioSustitucion && r.tipoRelacion === '04'),
    );
    if (blocking.length > 0) return answer('no_cancelable');
    const needsAcceptance = requiresAcceptance(stamp, now, this.deps.nextBusinessDayRule);
    const status = needsAcceptance ? 'en_proceso' : 'cancelado_sin_aceptacion';
    return {
      ...answer('201', ESTATUS_CANCELACION[status]),
      record: {
        uuid: stamp.uuid,
        status,
        motivo: folio.motivo,
        folioSustitucion: folio.folioSustitucion || null,
        requiresAcceptance: needsAcceptance,
        requestedAt: now,
        resolvedAt: needsAcceptance ? null : now,
      },
    };
  }

  /**
   * c_MotivoCancelacion (207 otherwise): 01 needs a stamped FolioSustitucion that relates this UUID with TipoRelacion
   * 04; 04 (operación nominativa relacionada en una factura global) applies only to a global invoice; 02–04 carry no
   * FolioSustitucion.
   */
  private async validMotive(
    folio: CancelacionRequest['folios'][number],
    stamp: StampRecord,
  ): Promise<boolean> {
    if (!MOTIVOS.has(folio.motivo)) return false;
    if (folio.motivo === '04' && !stamp.global) return false;
    if (folio.motivo !== '01') return !folio.folioSustitucion;
    if (!folio.folioSustitucion || folio.folioSustitucion === folio.uuid) return false;
    return this.deps.stamps.relates(folio.folioSustitucion, folio.uuid, '04');
  }

  /** The stored cancellation with time-based transitions applied (and persisted). */
  private async current(stamp: StampRecord, now: Date): Promise<CancellationRecord | undefined> {
    const stored = await this.deps.cancellations.find(stamp.uuid);
    if (!stored) return undefined;
    // A receiver trigger in the document answers at once, before any configured auto-answer.
    const answer = stamp.receiverAnswer;
    const options =
      answer === 'accept' || answer === 'reject'
        ? { ...this.deps.settle, autoAnswer: { answer, afterMs: 0 } }
        : this.deps.settle;
    const settled = settle(stored, now, options);
    if (settled === stored) return stored;
    // Conditional: a receiver answer that landed meanwhile wins over the clock.
    const moved = await this.deps.cancellations.transition(
      stored.uuid,
      'en_proceso',
      settled.status,
      settled.resolvedAt ?? now,
    );
    return moved ? settled : this.deps.cancellations.find(stored.uuid);
  }

  /** What the SAT consulta says; `undefined` when the UUID is unknown. */
  async status(uuid: string): Promise<{ stamp: StampRecord; status: SatStatus } | undefined> {
    const stamp = await this.deps.stamps.findByUuid(uuid);
    if (!stamp) return undefined;
    const now = this.deps.now();
    const cancellation = await this.current(stamp, now);
    const referrers = cancellation ? [] : await this.deps.stamps.validReferrers(uuid);
    const status = satStatusOf(cancellation, {
      hasValidReferrers: referrers.length > 0,
      requiresAcceptance: requiresAcceptance(stamp, now, this.deps.nextBusinessDayRule),
    });
    return { stamp, status };
  }

  /** The receiver's accept/reject (Buzón Tributario), exposed by the sandbox's control API. */
  async answer(uuid: string, answer: 'accept' | 'reject'): Promise<ReceiverAnswer> {
    const now = this.deps.now();
    const stamp = await this.deps.stamps.findByUuid(uuid);
    const cancellation = stamp ? await this.current(stamp, now) : undefined;
    if (!cancellation) return { ok: false, code: '1005', message: 'UUID sin solicitud de cancelación' };
    if (cancellation.status !== 'en_proceso') {
      return {
        ok: false,
        code: cancellation.requiresAcceptance ? '1002' : '1001',
        message: `la solicitud ya está ${ESTATUS_CANCELACION[cancellation.status]}`,
      };
    }
    const status = answer === 'accept' ? 'cancelado_con_aceptacion' : 'rechazada';
    if (!(await this.deps.cancellations.transition(cancellation.uuid, 'en_proceso', status, now))) {
      return { ok: false, code: '1002', message: 'la solicitud ya fue contestada' };
    }
    const result = await this.status(uuid);
    if (!result) throw new Error(`cancellation without a stamp: ${uuid}`);
    return { ok: true, uuid: cancellation.uuid, status: result.status };
  }

  /** Finkok `get_receipt` type C: the last acuse for this UUID, only for its issuer. */
  async receipt(uuid: string, rfcEmisor: string): Promise<{ acuse: string; fecha: string } | undefined> {
    const stamp = await this.deps.stamps.findByUuid(uuid);
    if (!stamp || stamp.emisorRfc !== rfcEmisor) return undefined;
    const cancellation = await this.deps.cancellations.find(uuid);
    // An empty acuse belongs to a request still being answered (claimed, acuse not yet written).
    return cancellation?.acuse ? { acuse: cancellation.acuse, fecha: cancellation.acuseFecha } : undefined;
  }
}
