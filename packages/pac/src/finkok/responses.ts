import type { Element } from '@xmldom/xmldom';
import { descendant, descendants, descendantText } from '../soap/envelope';
import type { CancelledFolio, Incidence } from '../types';

/** `AcuseRecepcionCFDI`: the body of stampResult / stampedResult. */
export interface StampAnswer {
  xml: string;
  uuid: string;
  fecha: string;
  codEstatus: string;
  satSeal: string;
  noCertificadoSat: string;
  incidences: Incidence[];
}

const text = (el: Element, name: string) => (descendantText(el, name) ?? '').trim();

export function parseStampAnswer(operation: Element): StampAnswer {
  return {
    // Finkok returns the stamped CFDI as an escaped string, not base64, so it is not trimmed or decoded.
    xml: descendantText(operation, 'xml') ?? '',
    uuid: text(operation, 'UUID'),
    fecha: text(operation, 'Fecha'),
    codEstatus: text(operation, 'CodEstatus'),
    satSeal: text(operation, 'SatSeal'),
    noCertificadoSat: text(operation, 'NoCertificadoSAT'),
    incidences: descendants(operation, 'Incidencia').map(parseIncidence),
  };
}

function parseIncidence(el: Element): Incidence {
  const extraInfo = text(el, 'ExtraInfo');
  const uuid = text(el, 'Uuid');
  return {
    code: text(el, 'CodigoError'),
    message: text(el, 'MensajeIncidencia'),
    ...(extraInfo ? { extraInfo } : {}),
    ...(uuid ? { uuid } : {}),
  };
}

/** `CancelaCFDResult`. */
export interface CancelAnswer {
  folios: CancelledFolio[];
  acuse: string;
  fecha: string;
  rfcEmisor: string;
  codEstatus: string;
}

export function parseCancelAnswer(operation: Element): CancelAnswer {
  const folios = descendants(operation, 'Folio').map((f) => ({
    uuid: text(f, 'UUID'),
    estatusUuid: text(f, 'EstatusUUID'),
    estatusCancelacion: text(f, 'EstatusCancelacion'),
  }));
  return {
    folios,
    acuse: descendantText(operation, 'Acuse') ?? '',
    fecha: text(operation, 'Fecha'),
    rfcEmisor: text(operation, 'RfcEmisor'),
    codEstatus: text(operation, 'CodEstatus'),
  };
}

/** `AcuseSatEstatus`: `sat{CodigoEstatus, Estado, EsCancelable, EstatusCancelacion, ValidacionEFOS}`, `error`. */
export interface SatStatusAnswer {
  codigoEstatus: string;
  estado: string;
  esCancelable: string;
  estatusCancelacion: string;
  validacionEfos: string;
  error: string;
}

export function parseSatStatusAnswer(operation: Element): SatStatusAnswer {
  const sat = descendant(operation, 'sat') ?? operation;
  return {
    codigoEstatus: text(sat, 'CodigoEstatus'),
    estado: text(sat, 'Estado'),
    esCancelable: text(sat, 'EsCancelable'),
    estatusCancelacion: text(sat, 'EstatusCancelacion'),
    validacionEfos: text(sat, 'ValidacionEFOS'),
    error: text(operation, 'error'),
  };
}

/** `ReceiptResult`: `{receipt, uuid, taxpayer_id, success, error, date}`. */
export interface ReceiptAnswer {
  success: boolean;
  receipt: string;
  uuid: string;
  date: string;
  error: string;
}

export function parseReceiptAnswer(operation: Element): ReceiptAnswer {
  return {
    success: text(operation, 'success') === 'true',
    receipt: descendantText(operation, 'receipt') ?? '',
    uuid: text(operation, 'uuid'),
    date: text(operation, 'date'),
    error: text(operation, 'error'),
  };
}

/** Registration `addResult` / `editResult`: `{success, message}`. */
export function parseRegistrationAnswer(operation: Element): { success: boolean; message: string } {
  return { success: text(operation, 'success') === 'true', message: text(operation, 'message') };
}

/** Registration `getResult`: `users/ResellerUser[]{status, counter, taxpayer_id, credit}`, `message`. */
export function parseGetAnswer(operation: Element): {
  users: { rfc: string; status: string; credit: string; typeUser: string }[];
  message: string;
} {
  const users = descendants(operation, 'ResellerUser').map((u) => ({
    rfc: text(u, 'taxpayer_id'),
    status: text(u, 'status'),
    credit: text(u, 'credit'),
    typeUser: text(u, 'type_user'),
  }));
  return { users, message: text(operation, 'message') };
}

/** `QueryPendingResult`: `{status, xml, uuid, uuid_status, next_attempt, attempts, error, date}`. */
export function parseQueryPendingAnswer(operation: Element): {
  status: string;
  xml: string;
  uuid: string;
  error: string;
} {
  return {
    status: text(operation, 'status'),
    xml: descendantText(operation, 'xml') ?? '',
    uuid: text(operation, 'uuid'),
    error: text(operation, 'error'),
  };
}
