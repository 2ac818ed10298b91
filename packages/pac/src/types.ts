/**
 * Results of every PAC call. Each union says exactly what the caller may do next:
 * - `rejected`: definitive answer about the document; retrying the same bytes gives the same answer.
 * - `unavailable`: the PAC did not process the request; retrying is safe.
 * - `ambiguous`: the PAC may have processed it; never re-send blindly, reconcile with `lookupStamped`.
 */

import type { Tfd } from '@cfdi/cfdi';

/** One entry of Finkok's `Incidencias` list. */
export interface Incidence {
  code: string;
  message: string;
  extraInfo?: string;
  uuid?: string;
}

export interface Stamped {
  outcome: 'stamped';
  xml: string;
  uuid: string;
  fechaTimbrado: string;
  tfd: Tfd;
  /** True when the PAC answered "timbre previo" (307) and we got back the original stamp. */
  previouslyStamped: boolean;
  incidences: Incidence[];
}

export interface Rejected {
  outcome: 'rejected';
  /** PAC incidence code (e.g. `302`) or SAT matrix code passed through (e.g. `CFDI40145`). */
  code: string;
  message: string;
  incidences: Incidence[];
}

export type UnavailableReason =
  | 'not_configured'
  | 'connection_failed'
  | 'timeout_before_send'
  | 'aborted_before_send'
  /** A read (lookup, status, receipt) that timed out; reads are always safe to repeat. */
  | 'timeout'
  | 'reset_before_send'
  | 'http_error'
  | 'sat_unreachable'
  | 'authentication'
  | 'account'
  | 'invalid_response';

export interface Unavailable {
  outcome: 'unavailable';
  reason: UnavailableReason;
  detail: string;
  /** The PAC's code when it answered with one (e.g. `708`, `300`). */
  code?: string;
}

export type AmbiguousReason =
  | 'timeout_after_send'
  | 'reset_after_send'
  | 'http_error_after_send'
  | 'queued'
  | 'duplicate_without_data'
  | 'soap_fault'
  | 'unrecognized_response';

export interface Ambiguous {
  outcome: 'ambiguous';
  reason: AmbiguousReason;
  detail: string;
  /** Known when the PAC told us (307 with a UUID but no XML). */
  uuid?: string;
}

/** Per-call context: the correlation id ties the PAC log lines to the caller's (e.g. a document id). */
export interface CallContext {
  correlationId?: string;
  /** Aborts the call (e.g. a cancelled activity); classified like a timeout at the same moment. */
  signal?: AbortSignal;
}

export type StampResult = Stamped | Rejected | Unavailable | Ambiguous;

/** `stamped` is a read: a failure to reach the PAC is always `unavailable` (retrying a read is safe). */
export type LookupResult =
  | Stamped
  | { outcome: 'not_stamped'; code: string; message: string }
  /** The PAC holds the document in its queue; ask again later. */
  | { outcome: 'pending'; detail: string; uuid?: string }
  | Unavailable;

export type QueryPendingResult =
  | { outcome: 'found'; status: string; uuid: string; xml?: string }
  | { outcome: 'not_found'; detail: string }
  | Unavailable;

export interface CancelledFolio {
  uuid: string;
  /** SAT per-UUID code: 201, 202, 203, 205, 207, … or `no_cancelable`. */
  estatusUuid: string;
  estatusCancelacion: string;
}

export interface CancelSubmitted {
  outcome: 'submitted';
  fecha: string;
  rfcEmisor: string;
  folios: CancelledFolio[];
  /** SAT-signed acuse XML, to be kept by the taxpayer. */
  acuse: string;
}

export type CancelResult = CancelSubmitted | Rejected | Unavailable | Ambiguous;

export interface SatStatusQuery {
  emisorRfc: string;
  receptorRfc: string;
  total: string;
  uuid: string;
  /** Last 8 chars are the `fe` of the SAT expression; Finkok's get_sat_status does not take it. */
  sello?: string;
}

export type Estado = 'Vigente' | 'Cancelado' | 'No Encontrado';

export interface SatStatusFound {
  outcome: 'found';
  codigoEstatus: string;
  estado: Estado;
  esCancelable: string;
  estatusCancelacion: string;
  validacionEfos?: string;
}

export type SatStatusResult =
  | SatStatusFound
  | { outcome: 'not_found'; codigoEstatus: string }
  | { outcome: 'invalid_expression'; codigoEstatus: string }
  | Unavailable;

export interface ReceiptQuery {
  uuid: string;
  emisorRfc: string;
  /** `C` cancellation acuse (default), `R` reception acuse. */
  type?: 'C' | 'R';
}

export type ReceiptResult =
  | { outcome: 'found'; uuid: string; receipt: string; date: string }
  | { outcome: 'not_found'; detail: string }
  | Unavailable;

export interface CsdRegistration {
  rfc: string;
  /** DER of the CSD certificate; the private key is never sent to the PAC. */
  certificateDer?: Buffer;
  /** Finkok `type_user`: `O` on demand, `P` prepaid. */
  typeUser?: 'O' | 'P';
}

export interface CsdUpdate {
  rfc: string;
  status: 'A' | 'S';
  certificateDer?: Buffer;
}

export type RegistrationResult =
  { outcome: 'ok'; message: string } | { outcome: 'rejected'; message: string } | Unavailable;

export type GetCsdResult =
  | { outcome: 'found'; rfc: string; status: string; typeUser: string; credit: string }
  | { outcome: 'not_found' }
  | Unavailable;

/** The PAC operations the platform's activities call. */
export interface PacClient {
  stamp(sealedXml: string, ctx?: CallContext): Promise<StampResult>;
  /** The "already stamped?" question for exactly these bytes. */
  lookupStamped(sealedXml: string, ctx?: CallContext): Promise<LookupResult>;
  /** A Retenciones 2.0 certificate, stamped on the PAC's retentions service (same outcomes as `stamp`). */
  stampRetention(sealedXml: string, ctx?: CallContext): Promise<StampResult>;
  lookupStampedRetention(sealedXml: string, ctx?: CallContext): Promise<LookupResult>;
  cancelRetention(signedCancelacionXml: string, ctx?: CallContext): Promise<CancelResult>;
  cancel(signedCancelacionXml: string, ctx?: CallContext): Promise<CancelResult>;
  satStatus(query: SatStatusQuery, ctx?: CallContext): Promise<SatStatusResult>;
  receipt(query: ReceiptQuery, ctx?: CallContext): Promise<ReceiptResult>;
  registerCsd(registration: CsdRegistration, ctx?: CallContext): Promise<RegistrationResult>;
  updateCsd(update: CsdUpdate, ctx?: CallContext): Promise<RegistrationResult>;
  getCsd(rfc: string, ctx?: CallContext): Promise<GetCsdResult>;
}
