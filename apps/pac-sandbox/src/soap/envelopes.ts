import { escapeXml, FINKOK_TYPES_NS, SOAP_ENV_NS } from '@cfdi/pac';
import type { Incidencia } from '../stamping/incidence-codes';

/** A Finkok-shaped answer: `tns:<op>Response/tns:<op>Result` with fields in the `s0` types namespace. */
export function soapResponse(namespace: string, operation: string, resultFields: string): string {
  return (
    "<?xml version='1.0' encoding='UTF-8'?>" +
    `<senv:Envelope xmlns:senv="${SOAP_ENV_NS}" xmlns:tns="${namespace}" xmlns:s0="${FINKOK_TYPES_NS}">` +
    `<senv:Body><tns:${operation}Response><tns:${operation}Result>${resultFields}</tns:${operation}Result>` +
    `</tns:${operation}Response></senv:Body></senv:Envelope>`
  );
}

export function soapFault(faultcode: 'senv:Client' | 'senv:Server', faultstring: string): string {
  return (
    "<?xml version='1.0' encoding='UTF-8'?>" +
    `<senv:Envelope xmlns:senv="${SOAP_ENV_NS}"><senv:Body><senv:Fault>` +
    `<faultcode>${faultcode}</faultcode><faultstring>${escapeXml(faultstring)}</faultstring>` +
    '</senv:Fault></senv:Body></senv:Envelope>'
  );
}

/** One `s0:` field; undefined values are left out, as Finkok omits empty optional parts. */
export function field(name: string, value: string | undefined): string {
  return value === undefined ? '' : `<s0:${name}>${escapeXml(value)}</s0:${name}>`;
}

export interface StampFields {
  xml?: string;
  uuid?: string;
  fecha?: string;
  codEstatus?: string;
  satSeal?: string;
  noCertificadoSat?: string;
  incidencias: readonly Incidencia[];
  rfcEmisor?: string;
  fechaRegistro: string;
}

/** `AcuseRecepcionCFDI` (stampResult / stampedResult). */
export function stampResultFields(s: StampFields): string {
  const incidencias = s.incidencias
    .map(
      (i, n) =>
        '<s0:Incidencia>' +
        field('IdIncidencia', String(n + 1)) +
        field('Uuid', s.uuid) +
        field('CodigoError', i.code) +
        field('WorkProcessId', undefined) +
        field('MensajeIncidencia', i.message) +
        field('ExtraInfo', i.extraInfo) +
        field('RfcEmisor', s.rfcEmisor) +
        field('NoCertificadoPac', s.noCertificadoSat) +
        field('FechaRegistro', s.fechaRegistro) +
        '</s0:Incidencia>',
    )
    .join('');
  return (
    field('xml', s.xml) +
    field('UUID', s.uuid) +
    field('Fecha', s.fecha) +
    field('CodEstatus', s.codEstatus) +
    field('SatSeal', s.satSeal) +
    `<s0:Incidencias>${incidencias}</s0:Incidencias>` +
    field('NoCertificadoSAT', s.noCertificadoSat)
  );
}
