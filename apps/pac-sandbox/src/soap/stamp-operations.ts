import { COD_ESTATUS, FINKOK_SERVICES } from '@cfdi/pac';
import { incidence, type Incidencia } from '../stamping/incidence-codes';
import { satSealOf } from '../stamping/stamp-service';
import type { StampRecord } from '../storage/stamps';
import { mexicoLocal } from '../time/mexico-time';
import { authenticated, type OperationHandler, type OperationContext } from './context';
import { field, soapResponse, stampResultFields } from './envelopes';
import { decodeXmlParam } from './read-request';

const NS = FINKOK_SERVICES.stamp.namespace;

function answer(operation: 'stamp' | 'stamped', fields: Parameters<typeof stampResultFields>[0]): string {
  return soapResponse(NS, operation, stampResultFields(fields));
}

function incidenceAnswer(ctx: OperationContext, operation: 'stamp' | 'stamped', i: Incidencia): string {
  return answer(operation, {
    incidencias: [i],
    noCertificadoSat: ctx.noCertificadoSat,
    fechaRegistro: mexicoLocal(ctx.now()),
  });
}

function stampedAnswer(
  ctx: OperationContext,
  operation: 'stamp' | 'stamped',
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

export const stampOperation: OperationHandler = async (ctx, params, fault) => {
  if (!authenticated(ctx.credentials, params.username, params.password))
    return incidenceAnswer(ctx, 'stamp', incidence('300'));
  if (fault?.kind === 'sat_unavailable') return incidenceAnswer(ctx, 'stamp', incidence('708'));
  if (fault?.kind === 'reject')
    return incidenceAnswer(ctx, 'stamp', incidence(fault.params.code ?? '301', fault.params.message));
  const decoded = decodeXmlParam(params.xml);
  if (!decoded.ok)
    return incidenceAnswer(ctx, 'stamp', incidence('705', 'xml no es base64 de un documento XML'));
  const outcome = await ctx.stampService.stamp(decoded.xml);
  if (outcome.kind === 'rejected') return incidenceAnswer(ctx, 'stamp', outcome.incidencia);
  const now = mexicoLocal(ctx.now());
  if (fault?.kind === 'queued') {
    return answer('stamp', {
      codEstatus: COD_ESTATUS.received,
      incidencias: [],
      noCertificadoSat: ctx.noCertificadoSat,
      fechaRegistro: now,
    });
  }
  if (fault?.kind === 'duplicate_without_data') {
    return answer('stamp', {
      incidencias: [incidence('307')],
      noCertificadoSat: ctx.noCertificadoSat,
      fechaRegistro: now,
    });
  }
  return stampedAnswer(ctx, 'stamp', outcome.record, outcome.satSeal, outcome.previouslyStamped);
};

export const stampedOperation: OperationHandler = async (ctx, params, fault) => {
  if (!authenticated(ctx.credentials, params.username, params.password))
    return incidenceAnswer(ctx, 'stamped', incidence('300'));
  if (fault?.kind === 'sat_unavailable') return incidenceAnswer(ctx, 'stamped', incidence('708'));
  if (fault?.kind === 'reject')
    return incidenceAnswer(ctx, 'stamped', incidence(fault.params.code ?? '603', fault.params.message));
  const decoded = decodeXmlParam(params.xml);
  if (!decoded.ok) return incidenceAnswer(ctx, 'stamped', incidence('705'));
  const record = await ctx.stampService.stamped(decoded.xml);
  return record
    ? stampedAnswer(ctx, 'stamped', record, satSealOf(record), false)
    : incidenceAnswer(ctx, 'stamped', incidence('603'));
};

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
