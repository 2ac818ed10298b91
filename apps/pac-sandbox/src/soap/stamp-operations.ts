import { COD_ESTATUS, FINKOK_SERVICES } from '@cfdi/pac';
import { incidence, type Incidencia } from '../stamping/incidence-codes';
import { satSealOf, type StampedDocument } from '../stamping/stamp-service';
import type { StampRecord } from '../storage/stamps';
import { mexicoLocal } from '../time/mexico-time';
import { authenticated, type OperationHandler, type OperationContext } from './context';
import { field, soapResponse, stampResultFields } from './envelopes';
import { decodeXmlParam } from './read-request';

const NS = FINKOK_SERVICES.stamp.namespace;

/** The service an answer comes from: Finkok's stamp (CFDI) or retentions (Retenciones 2.0), same shapes. */
type Service = { namespace: string; document: StampedDocument };
const CFDI: Service = { namespace: NS, document: 'cfdi' };
const RETENTIONS: Service = { namespace: FINKOK_SERVICES.retentions.namespace, document: 'retenciones' };

type Operation = { service: Service; name: 'stamp' | 'stamped' };

function answer(operation: Operation, fields: Parameters<typeof stampResultFields>[0]): string {
  return soapResponse(operation.service.namespace, operation.name, stampResultFields(fields));
}

function incidenceAnswer(ctx: OperationContext, operation: Operation, i: Incidencia): string {
  return answer(operation, {
    incidencias: [i],
    noCertificadoSat: ctx.noCertificadoSat,
    fechaRegistro: mexicoLocal(ctx.now()),
  });
}

function stampedAnswer(
  ctx: OperationContext,
  operation: Operation,
  r: StampRecord,
  satSeal: string,
  previously: boolean,
): string {
  return answer(operation, {
    xml: r.xml,
    uuid: r.uuid,
    fecha: r.fechaTimbrado,
    codEstatus: previously ? COD_ESTATUS.previouslyStamped : COD_ESTATUS.stamped,
    satSeal,
    noCertificadoSat: ctx.noCertificadoSat,
    // Finkok reports a duplicate as incidence 307 *with* the original stamp (pac.md §3.1).
    incidencias: previously ? [incidence('307')] : [],
    rfcEmisor: r.emisorRfc,
    fechaRegistro: mexicoLocal(ctx.now()),
  });
}

const stampOn =
  (service: Service): OperationHandler =>
  async (ctx, params, fault) => {
    const op: Operation = { service, name: 'stamp' };
    if (!authenticated(ctx.credentials, params.username, params.password))
      return incidenceAnswer(ctx, op, incidence('300'));
    if (fault?.kind === 'sat_unavailable') return incidenceAnswer(ctx, op, incidence('708'));
    if (fault?.kind === 'reject')
      return incidenceAnswer(ctx, op, incidence(fault.params.code ?? '301', fault.params.message));
    const decoded = decodeXmlParam(params.xml);
    if (!decoded.ok)
      return incidenceAnswer(ctx, op, incidence('705', 'xml no es base64 de un documento XML'));
    const outcome = await ctx.stampService.stamp(decoded.xml, service.document);
    if (outcome.kind === 'rejected') return incidenceAnswer(ctx, op, outcome.incidencia);
    const now = mexicoLocal(ctx.now());
    if (fault?.kind === 'queued') {
      return answer(op, {
        codEstatus: COD_ESTATUS.received,
        incidencias: [],
        noCertificadoSat: ctx.noCertificadoSat,
        fechaRegistro: now,
      });
    }
    if (fault?.kind === 'duplicate_without_data') {
      return answer(op, {
        incidencias: [incidence('307')],
        noCertificadoSat: ctx.noCertificadoSat,
        fechaRegistro: now,
      });
    }
    return stampedAnswer(ctx, op, outcome.record, outcome.satSeal, outcome.previouslyStamped);
  };

const stampedOn =
  (service: Service): OperationHandler =>
  async (ctx, params, fault) => {
    const op: Operation = { service, name: 'stamped' };
    if (!authenticated(ctx.credentials, params.username, params.password))
      return incidenceAnswer(ctx, op, incidence('300'));
    if (fault?.kind === 'sat_unavailable') return incidenceAnswer(ctx, op, incidence('708'));
    if (fault?.kind === 'reject')
      return incidenceAnswer(ctx, op, incidence(fault.params.code ?? '603', fault.params.message));
    const decoded = decodeXmlParam(params.xml);
    if (!decoded.ok) return incidenceAnswer(ctx, op, incidence('705'));
    const record = await ctx.stampService.stamped(decoded.xml);
    return record
      ? stampedAnswer(ctx, op, record, satSealOf(record), false)
      : incidenceAnswer(ctx, op, incidence('603'));
  };

export const stampOperation = stampOn(CFDI);
export const stampedOperation = stampedOn(CFDI);
export const retentionStampOperation = stampOn(RETENTIONS);
export const retentionStampedOperation = stampedOn(RETENTIONS);

/** `query_pending`: the sandbox delivers to its "SAT" synchronously, so a known UUID is always `F`. */
export const queryPendingOperation: OperationHandler = async (ctx, params) => {
  const uuid = (params.uuid ?? '').trim();
  const fields = (f: Record<string, string>) =>
    Object.entries(f)
      .map(([k, v]) => field(k, v))
      .join('');
  if (!authenticated(ctx.credentials, params.username, params.password)) {
    return soapResponse(NS, 'query_pending', fields({ error: incidence('300').message }));
  }
  const record = await ctx.stampService.byUuid(uuid);
  if (!record) return soapResponse(NS, 'query_pending', fields({ error: `UUID ${uuid} No Encontrado` }));
  return soapResponse(
    NS,
    'query_pending',
    fields({
      status: 'F',
      xml: record.xml,
      uuid: record.uuid,
      uuid_status: 'F',
      next_attempt: '',
      attempts: '1',
      error: '',
      date: record.fechaTimbrado,
    }),
  );
};
