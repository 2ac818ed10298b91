import { randomUUID } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import type { PacLogger } from '../logger';
import { parseEnvelope, type SoapFault } from '../soap/envelope';
import { classifyTransport, type WireFailure } from '../transport/classify-transport';
import { postSoap, type TransportOptions } from '../transport/soap-transport';
import type { CallContext, Unavailable } from '../types';
import { asReadFailure, readFault } from './read-failure';
import type { FinkokRequest } from './requests';

export type CallOutcome =
  | { kind: 'ok'; operation: Element }
  | { kind: 'fault'; fault: SoapFault }
  | { kind: 'failure'; failure: WireFailure };

export interface CallDeps {
  baseUrl: string;
  transport: TransportOptions;
  logger: PacLogger;
}

/**
 * One SOAP round trip. Transport failures and SOAP faults are logged here with their wire detail
 * (HTTP status, error code); never the XML, the credentials or key material.
 */
export async function callFinkok(
  deps: CallDeps,
  req: FinkokRequest,
  ctx: CallContext | undefined,
): Promise<CallOutcome> {
  const correlationId = ctx?.correlationId ?? randomUUID();
  const started = Date.now();
  const wire = await postSoap(
    {
      url: new URL(req.path, deps.baseUrl).toString(),
      soapAction: req.soapAction,
      body: req.body,
      correlationId,
      ...(ctx?.signal ? { signal: ctx.signal } : {}),
    },
    deps.transport,
  );
  const outcome = toOutcome(wire);
  const log = {
    pac: 'finkok',
    operation: req.operation,
    correlationId,
    durationMs: Date.now() - started,
    httpStatus: wire.kind === 'response' ? wire.status : undefined,
    outcome: outcome.kind === 'failure' ? outcome.failure.outcome : outcome.kind,
    detail:
      outcome.kind === 'fault'
        ? outcome.fault.faultstring
        : outcome.kind === 'failure'
          ? outcome.failure.detail
          : undefined,
  };
  if (outcome.kind !== 'ok') deps.logger.warn(log, 'pac request failed');
  return outcome;
}

/** A read (no side effect): any failure or fault is `unavailable`, since asking again is safe. */
export async function readFinkok(
  deps: CallDeps,
  req: FinkokRequest,
  ctx: CallContext | undefined,
): Promise<{ ok: true; operation: Element } | { ok: false; unavailable: Unavailable }> {
  const out = await callFinkok(deps, req, ctx);
  if (out.kind === 'failure') return { ok: false, unavailable: asReadFailure(out.failure) };
  if (out.kind === 'fault') return { ok: false, unavailable: readFault(out.fault) };
  return { ok: true, operation: out.operation };
}

function toOutcome(wire: Awaited<ReturnType<typeof postSoap>>): CallOutcome {
  const failure = classifyTransport(wire);
  if (failure) return { kind: 'failure', failure };
  if (wire.kind !== 'response')
    throw new Error('unreachable: failed transport outcomes are classified above');
  const parsed = parseEnvelope(wire.body);
  if (parsed.kind === 'fault') return { kind: 'fault', fault: parsed.fault };
  if (parsed.kind === 'invalid') {
    // A 200 whose body we cannot read: the PAC did run the operation.
    return {
      kind: 'failure',
      failure: { outcome: 'ambiguous', reason: 'unrecognized_response', detail: parsed.detail },
    };
  }
  return { kind: 'ok', operation: parsed.operation };
}
