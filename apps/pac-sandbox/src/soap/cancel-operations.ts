import { FINKOK_SERVICES } from '@cfdi/pac';
import { incidenceMessage } from '../stamping/incidence-codes';
import type { StampedDocument } from '../stamping/stamp-service';
import { authenticated, type OperationHandler } from './context';
import { field, soapResponse } from './envelopes';
import { decodeXmlParam } from './read-request';

const NS = FINKOK_SERVICES.cancel.namespace;

/** Request-level errors travel in CodEstatus as "<code> - <message>". */
const codEstatusIn =
  (ns: string) =>
  (code: string, message = incidenceMessage(code)) =>
    soapResponse(ns, 'cancel_signature', field('CodEstatus', `${code} - ${message}`));

/** `cancel_signature` of the cancel service (CFDI) or of the retentions service (Retenciones 2.0). */
const cancelSignatureOn =
  (ns: string, document: StampedDocument): OperationHandler =>
  async (ctx, params, fault) => {
    const codEstatus = codEstatusIn(ns);
    if (!authenticated(ctx.credentials, params.username, params.password)) return codEstatus('300');
    if (fault?.kind === 'sat_unavailable') return codEstatus('708');
    if (fault?.kind === 'reject') return codEstatus(fault.params.code ?? '301', fault.params.message);
    const decoded = decodeXmlParam(params.xml);
    if (!decoded.ok) return codEstatus('301', 'xml no es base64 de un documento XML');
    const outcome = await ctx.cancelService.cancel(decoded.xml, document);
    if (outcome.kind === 'error') return codEstatus(outcome.code, outcome.message);
    const folios = outcome.folios
      .map(
        (f) =>
          `<s0:Folio>${field('EstatusUUID', f.estatusUuid)}${field('UUID', f.uuid)}${field('EstatusCancelacion', f.estatusCancelacion)}</s0:Folio>`,
      )
      .join('');
    return soapResponse(
      ns,
      'cancel_signature',
      `<s0:Folios>${folios}</s0:Folios>` +
        field('Acuse', outcome.acuse) +
        field('Fecha', outcome.fecha) +
        field('RfcEmisor', outcome.rfcEmisor),
    );
  };

export const cancelSignatureOperation = cancelSignatureOn(NS, 'cfdi');
export const retentionCancelSignatureOperation = cancelSignatureOn(
  FINKOK_SERVICES.retentions.namespace,
  'retenciones',
);

const CODIGO = {
  found: 'S - Comprobante obtenido satisfactoriamente.',
  invalid: 'N - 601: La expresión impresa proporcionada no es válida.',
  notFound: 'N - 602: Comprobante no encontrado.',
};

export const getSatStatusOperation: OperationHandler = async (ctx, params, fault) => {
  const reply = (sat: Record<string, string> | undefined, error = '') =>
    soapResponse(
      NS,
      'get_sat_status',
      (sat
        ? `<s0:sat>${Object.entries(sat)
            .map(([k, v]) => field(k, v))
            .join('')}</s0:sat>`
        : '') + field('error', error),
    );
  if (!authenticated(ctx.credentials, params.username, params.password))
    return reply(undefined, `300 - ${incidenceMessage('300')}`);
  if (fault?.kind === 'sat_unavailable') return reply(undefined, `708 - ${incidenceMessage('708')}`);
  if (fault?.kind === 'reject')
    return reply(undefined, `${fault.params.code ?? '601'} - ${fault.params.message ?? 'rechazo simulado'}`);
  const found = await ctx.cancelService.status((params.uuid ?? '').trim());
  const notFound = {
    CodigoEstatus: CODIGO.notFound,
    Estado: 'No Encontrado',
    EsCancelable: '',
    EstatusCancelacion: '',
  };
  if (!found) return reply(notFound);
  const { stamp, status } = found;
  // The SAT answers only for the exact expression: RFCs and total must match the CFDI.
  const matches =
    stamp.emisorRfc === (params.taxpayer_id ?? '').trim() &&
    stamp.receptorRfc === (params.rtaxpayer_id ?? '').trim() &&
    Number(stamp.total) === Number(params.total);
  if (!matches) return reply({ ...notFound, CodigoEstatus: CODIGO.invalid, Estado: '' });
  return reply({
    CodigoEstatus: CODIGO.found,
    Estado: status.estado,
    EsCancelable: status.esCancelable,
    EstatusCancelacion: status.estatusCancelacion,
    // 200: the issuer is not in the art. 69-B (EFOS) list.
    ValidacionEFOS: '200',
  });
};

export const getReceiptOperation: OperationHandler = async (ctx, params, fault) => {
  const reply = (f: Record<string, string>) =>
    soapResponse(
      NS,
      'get_receipt',
      Object.entries(f)
        .map(([k, v]) => field(k, v))
        .join(''),
    );
  const uuid = (params.uuid ?? '').trim().toUpperCase();
  const rfc = (params.taxpayer_id ?? '').trim();
  if (!authenticated(ctx.credentials, params.username, params.password))
    return reply({ success: 'false', error: `300 - ${incidenceMessage('300')}` });
  if (fault?.kind === 'sat_unavailable')
    return reply({ success: 'false', error: `708 - ${incidenceMessage('708')}` });
  // Only cancellation acuses are kept (type C); reception acuses are not stored by the sandbox.
  const receipt = params.type === 'R' ? undefined : await ctx.cancelService.receipt(uuid, rfc);
  if (!receipt) return reply({ success: 'false', uuid, taxpayer_id: rfc, error: 'No se encontró el acuse' });
  return reply({
    receipt: receipt.acuse,
    uuid,
    taxpayer_id: rfc,
    success: 'true',
    error: '',
    date: receipt.fecha,
  });
};
