import { parseTfd } from '@cfdi/cfdi';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger, type PacLogger } from '../logger';
import { createAgents } from '../transport/soap-transport';
import type {
  CallContext,
  CancelResult,
  CsdRegistration,
  CsdUpdate,
  GetCsdResult,
  LookupResult,
  PacClient,
  QueryPendingResult,
  ReceiptQuery,
  ReceiptResult,
  RegistrationResult,
  SatStatusQuery,
  SatStatusResult,
  Stamped,
  StampResult,
} from '../types';
import { callFinkok, readFinkok, type CallDeps } from './call';
import { logResult } from './log-result';
import { classifyStampAnswer, unavailableStamp } from './classify-stamp';
import { writeFault } from './read-failure';
import * as req from './requests';
import {
  parseCancelAnswer,
  parseGetAnswer,
  parseQueryPendingAnswer,
  parseReceiptAnswer,
  parseRegistrationAnswer,
  parseSatStatusAnswer,
  parseStampAnswer,
  type StampAnswer,
} from './responses';

export interface FinkokPacOptions extends req.FinkokCredentials {
  /** Host root, e.g. https://demo-facturacion.finkok.com (paths /servicios/soap/* are appended). */
  url: string;
  /** Deadline per SOAP call. Default 30 s: Finkok stamps in 1-3 s, SAT-bound calls can take longer. */
  timeoutMs?: number;
  keepAliveMsecs?: number;
  maxSockets?: number;
  logger?: PacLogger;
  /**
   * After "timbre previo" without data or "recibido" without XML, ask `stamped` this many times,
   * `delayMs` apart (phpcfdi loops every 0.2 s for the same Finkok quirk). Default 3 × 200 ms.
   */
  followUp?: { attempts: number; delayMs: number };
}

/** PAC client over Finkok's SOAP 1.1 services (also spoken by the sandbox PAC). */

/** Which Finkok service a sealed document goes to: CFDI to `stamp`, Retenciones 2.0 to `retentions`. */
type StampedKind = 'cfdi' | 'retention';

export class FinkokPac implements PacClient {
  private readonly deps: CallDeps;
  private readonly credentials: req.FinkokCredentials;
  private readonly followUp: { attempts: number; delayMs: number };

  constructor(options: FinkokPacOptions) {
    this.credentials = options;
    this.followUp = options.followUp ?? { attempts: 3, delayMs: 200 };
    this.deps = {
      baseUrl: options.url,
      logger: options.logger ?? silentLogger,
      transport: {
        timeoutMs: options.timeoutMs ?? 30_000,
        agents: createAgents(options.keepAliveMsecs, options.maxSockets),
      },
    };
  }

  /** Closes idle keep-alive sockets (tests, graceful shutdown). */
  close(): void {
    this.deps.transport.agents.http.destroy();
    this.deps.transport.agents.https.destroy();
  }

  stamp(sealedXml: string, ctx?: CallContext): Promise<StampResult> {
    return this.stampOn('cfdi', sealedXml, ctx);
  }

  /** Retenciones 2.0 go to Finkok's retentions service, with the same answers as `stamp`. */
  stampRetention(sealedXml: string, ctx?: CallContext): Promise<StampResult> {
    return this.stampOn('retention', sealedXml, ctx);
  }

  lookupStamped(sealedXml: string, ctx?: CallContext): Promise<LookupResult> {
    return this.lookupOn('cfdi', sealedXml, ctx);
  }

  lookupStampedRetention(sealedXml: string, ctx?: CallContext): Promise<LookupResult> {
    return this.lookupOn('retention', sealedXml, ctx);
  }

  private stampOn(kind: StampedKind, sealedXml: string, ctx?: CallContext): Promise<StampResult> {
    const operation = kind === 'cfdi' ? 'stamp' : 'retention_stamp';
    return logResult(this.deps.logger, operation, ctx, async (ctx) => {
      const out = await callFinkok(this.deps, req.stampRequest(this.credentials, sealedXml, operation), ctx);
      if (out.kind === 'failure') return out.failure;
      if (out.kind === 'fault') return writeFault(out.fault);
      const answer = parseStampAnswer(out.operation);
      const decision = classifyStampAnswer(answer);
      switch (decision.kind) {
        case 'stamped':
          return toStamped(answer, decision.previouslyStamped) ?? unreadableStamp();
        case 'follow_up':
          return this.fetchStamp(kind, sealedXml, decision.reason, decision.uuid, ctx);
        case 'not_stamped':
        case 'rejected':
          return {
            outcome: 'rejected',
            code: decision.code,
            message: decision.message,
            incidences: answer.incidences,
          };
        case 'unavailable':
          return unavailableStamp(decision);
        case 'unrecognized':
          return { outcome: 'ambiguous', reason: 'unrecognized_response', detail: decision.detail };
      }
    });
  }

  /** Finkok has the document but withheld the CFDI: poll `stamped` briefly, else report ambiguity. */
  private async fetchStamp(
    kind: StampedKind,
    sealedXml: string,
    reason: 'queued' | 'duplicate_without_data',
    uuid: string | undefined,
    ctx: CallContext | undefined,
  ): Promise<StampResult> {
    for (let attempt = 0; attempt < this.followUp.attempts; attempt++) {
      if (attempt > 0) await sleep(this.followUp.delayMs);
      const found = await this.lookupOn(kind, sealedXml, ctx);
      if (found.outcome === 'stamped')
        return { ...found, previouslyStamped: reason === 'duplicate_without_data' };
    }
    const detail =
      reason === 'queued' ? 'Comprobante recibido: queued at the PAC' : '307 timbre previo without the CFDI';
    return { outcome: 'ambiguous', reason, detail, ...(uuid ? { uuid } : {}) };
  }

  private lookupOn(kind: StampedKind, sealedXml: string, ctx?: CallContext): Promise<LookupResult> {
    const operation = kind === 'cfdi' ? 'stamped' : 'retention_stamped';
    return logResult(
      this.deps.logger,
      kind === 'cfdi' ? 'lookupStamped' : 'lookupStampedRetention',
      ctx,
      async (ctx) => {
        const out = await readFinkok(
          this.deps,
          req.stampedRequest(this.credentials, sealedXml, operation),
          ctx,
        );
        if (!out.ok) return out.unavailable;
        const answer = parseStampAnswer(out.operation);
        const decision = classifyStampAnswer(answer);
        switch (decision.kind) {
          case 'stamped':
            return (
              toStamped(answer, true) ?? {
                outcome: 'unavailable',
                reason: 'invalid_response',
                detail: 'stamped CFDI without a TFD',
              }
            );
          case 'follow_up':
            return {
              outcome: 'pending',
              detail: decision.reason,
              ...(decision.uuid ? { uuid: decision.uuid } : {}),
            };
          case 'not_stamped':
          case 'rejected':
            return { outcome: 'not_stamped', code: decision.code, message: decision.message };
          case 'unavailable':
            return unavailableStamp(decision);
          case 'unrecognized':
            return { outcome: 'unavailable', reason: 'invalid_response', detail: decision.detail };
        }
      },
    );
  }

  /** Finkok `query_pending`: `S` stamped but not yet delivered to the SAT, `F` delivered. */
  queryPending(uuid: string, ctx?: CallContext): Promise<QueryPendingResult> {
    return logResult(this.deps.logger, 'queryPending', ctx, async (ctx) => {
      const out = await readFinkok(this.deps, req.queryPendingRequest(this.credentials, uuid), ctx);
      if (!out.ok) return out.unavailable;
      const a = parseQueryPendingAnswer(out.operation);
      if (!a.status) return { outcome: 'not_found', detail: a.error };
      return { outcome: 'found', status: a.status, uuid: a.uuid, ...(a.xml ? { xml: a.xml } : {}) };
    });
  }

  cancel(signedCancelacionXml: string, ctx?: CallContext): Promise<CancelResult> {
    return this.cancelOn('cfdi', signedCancelacionXml, ctx);
  }

  /** The retentions service's `cancel_signature`: same signed request and answers as a CFDI's. */
  cancelRetention(signedCancelacionXml: string, ctx?: CallContext): Promise<CancelResult> {
    return this.cancelOn('retention', signedCancelacionXml, ctx);
  }

  private cancelOn(
    kind: StampedKind,
    signedCancelacionXml: string,
    ctx?: CallContext,
  ): Promise<CancelResult> {
    const operation = kind === 'cfdi' ? 'cancel_signature' : 'retention_cancel_signature';
    return logResult(this.deps.logger, kind === 'cfdi' ? 'cancel' : 'cancelRetention', ctx, async (ctx) => {
      const out = await callFinkok(
        this.deps,
        req.cancelSignatureRequest(this.credentials, signedCancelacionXml, false, operation),
        ctx,
      );
      if (out.kind === 'failure') return out.failure;
      if (out.kind === 'fault') return writeFault(out.fault);
      const answer = parseCancelAnswer(out.operation);
      if (answer.folios.length > 0) {
        return {
          outcome: 'submitted',
          fecha: answer.fecha,
          rfcEmisor: answer.rfcEmisor,
          folios: answer.folios,
          acuse: answer.acuse,
        };
      }
      const code = /^\s*(\w+)/.exec(answer.codEstatus)?.[1] ?? '';
      if (code === '708')
        return { outcome: 'unavailable', reason: 'sat_unreachable', code, detail: answer.codEstatus };
      if (code === '300')
        return { outcome: 'unavailable', reason: 'authentication', code, detail: answer.codEstatus };
      return { outcome: 'rejected', code, message: answer.codEstatus, incidences: [] };
    });
  }

  satStatus(query: SatStatusQuery, ctx?: CallContext): Promise<SatStatusResult> {
    return logResult(this.deps.logger, 'satStatus', ctx, async (ctx) => {
      const out = await readFinkok(this.deps, req.satStatusRequest(this.credentials, query), ctx);
      if (!out.ok) return out.unavailable;
      const a = parseSatStatusAnswer(out.operation);
      if (a.codigoEstatus.startsWith('S')) {
        return {
          outcome: 'found',
          codigoEstatus: a.codigoEstatus,
          estado: a.estado === 'Cancelado' ? 'Cancelado' : 'Vigente',
          esCancelable: a.esCancelable,
          estatusCancelacion: a.estatusCancelacion,
          ...(a.validacionEfos ? { validacionEfos: a.validacionEfos } : {}),
        };
      }
      if (a.codigoEstatus.includes('602')) return { outcome: 'not_found', codigoEstatus: a.codigoEstatus };
      if (a.codigoEstatus.includes('601'))
        return { outcome: 'invalid_expression', codigoEstatus: a.codigoEstatus };
      const reason = a.error.startsWith('708') ? 'sat_unreachable' : 'invalid_response';
      return {
        outcome: 'unavailable',
        reason,
        detail: a.error || `unexpected CodigoEstatus "${a.codigoEstatus}"`,
      };
    });
  }

  receipt(query: ReceiptQuery, ctx?: CallContext): Promise<ReceiptResult> {
    return logResult(this.deps.logger, 'receipt', ctx, async (ctx) => {
      const request = req.receiptRequest(this.credentials, { ...query, type: query.type ?? 'C' });
      const out = await readFinkok(this.deps, request, ctx);
      if (!out.ok) return out.unavailable;
      const a = parseReceiptAnswer(out.operation);
      if (a.success && a.receipt)
        return { outcome: 'found', uuid: a.uuid || query.uuid, receipt: a.receipt, date: a.date };
      if (a.error.startsWith('708'))
        return { outcome: 'unavailable', reason: 'sat_unreachable', detail: a.error };
      return { outcome: 'not_found', detail: a.error };
    });
  }

  registerCsd(r: CsdRegistration, ctx?: CallContext): Promise<RegistrationResult> {
    return logResult(this.deps.logger, 'registerCsd', ctx, async (ctx) => {
      const request = req.addRequest(this.credentials, {
        rfc: r.rfc,
        typeUser: r.typeUser ?? 'O',
        ...(r.certificateDer ? { cer: r.certificateDer } : {}),
      });
      return this.registration(request, ctx);
    });
  }

  updateCsd(u: CsdUpdate, ctx?: CallContext): Promise<RegistrationResult> {
    return logResult(this.deps.logger, 'updateCsd', ctx, async (ctx) => {
      const request = req.editRequest(this.credentials, {
        rfc: u.rfc,
        status: u.status,
        ...(u.certificateDer ? { cer: u.certificateDer } : {}),
      });
      return this.registration(request, ctx);
    });
  }

  private async registration(
    request: req.FinkokRequest,
    ctx: CallContext | undefined,
  ): Promise<RegistrationResult> {
    // Registration is idempotent per RFC (add then edit), so a lost answer is simply retried: it reads as a read.
    const out = await readFinkok(this.deps, request, ctx);
    if (!out.ok) return out.unavailable;
    const a = parseRegistrationAnswer(out.operation);
    return a.success ? { outcome: 'ok', message: a.message } : { outcome: 'rejected', message: a.message };
  }

  getCsd(rfc: string, ctx?: CallContext): Promise<GetCsdResult> {
    return logResult(this.deps.logger, 'getCsd', ctx, async (ctx) => {
      const out = await readFinkok(this.deps, req.getRequest(this.credentials, rfc), ctx);
      if (!out.ok) return out.unavailable;
      const user = parseGetAnswer(out.operation).users.find((u) => u.rfc === rfc);
      if (!user) return { outcome: 'not_found' };
      return {
        outcome: 'found',
        rfc: user.rfc,
        status: user.status,
        typeUser: user.typeUser,
        credit: user.credit,
      };
    });
  }
}

function toStamped(answer: StampAnswer, previouslyStamped: boolean): Stamped | undefined {
  let tfd;
  try {
    tfd = parseTfd(answer.xml);
  } catch {
    return undefined;
  }
  if (!tfd) return undefined;
  return {
    outcome: 'stamped',
    xml: answer.xml,
    uuid: tfd.uuid,
    fechaTimbrado: tfd.fechaTimbrado,
    tfd,
    previouslyStamped,
    incidences: answer.incidences,
  };
}

/** Finkok said it stamped but the CFDI it returned has no TFD: the stamp exists, we just can't read it. */
function unreadableStamp(): StampResult {
  return {
    outcome: 'ambiguous',
    reason: 'unrecognized_response',
    detail: 'stamped CFDI without a readable TFD',
  };
}
