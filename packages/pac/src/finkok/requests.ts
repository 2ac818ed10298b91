import { buildEnvelope } from '../soap/envelope';
import { FINKOK_OPERATIONS, FINKOK_SERVICES, finkokWireName, type FinkokOperation } from './protocol';

export interface FinkokCredentials {
  username: string;
  password: string;
  /** Registration calls authenticate as the reseller ("socio de negocios"); defaults to username/password. */
  resellerUsername?: string;
  resellerPassword?: string;
}

export interface FinkokRequest {
  operation: FinkokOperation;
  path: string;
  /** The wire name of the operation (SOAPAction and body element). */
  soapAction: string;
  body: string;
}

function request(
  operation: FinkokOperation,
  params: ReadonlyArray<readonly [string, string | undefined]>,
): FinkokRequest {
  const service = FINKOK_SERVICES[FINKOK_OPERATIONS[operation]];
  return {
    operation,
    path: service.path,
    soapAction: finkokWireName(operation),
    body: buildEnvelope(service.namespace, finkokWireName(operation), params),
  };
}

/** `xml` is `xs:base64Binary`: encode exactly once (twice yields 705 at Finkok). */
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** `stamp` of a CFDI, or of a Retenciones 2.0 certificate on the retentions service. */
export function stampRequest(
  c: FinkokCredentials,
  sealedXml: string,
  operation: 'stamp' | 'retention_stamp' = 'stamp',
): FinkokRequest {
  return request(operation, [
    ['xml', b64(sealedXml)],
    ['username', c.username],
    ['password', c.password],
  ]);
}

export function stampedRequest(
  c: FinkokCredentials,
  sealedXml: string,
  operation: 'stamped' | 'retention_stamped' = 'stamped',
): FinkokRequest {
  return request(operation, [
    ['xml', b64(sealedXml)],
    ['username', c.username],
    ['password', c.password],
  ]);
}

export function queryPendingRequest(c: FinkokCredentials, uuid: string): FinkokRequest {
  return request('query_pending', [
    ['username', c.username],
    ['password', c.password],
    ['uuid', uuid],
  ]);
}

export function cancelSignatureRequest(
  c: FinkokCredentials,
  signedXml: string,
  storePending = false,
  operation: 'cancel_signature' | 'retention_cancel_signature' = 'cancel_signature',
): FinkokRequest {
  return request(operation, [
    ['xml', b64(signedXml)],
    ['username', c.username],
    ['password', c.password],
    ['store_pending', String(storePending)],
  ]);
}

export function satStatusRequest(
  c: FinkokCredentials,
  q: { emisorRfc: string; receptorRfc: string; uuid: string; total: string },
): FinkokRequest {
  return request('get_sat_status', [
    ['username', c.username],
    ['password', c.password],
    ['taxpayer_id', q.emisorRfc],
    ['rtaxpayer_id', q.receptorRfc],
    ['uuid', q.uuid],
    ['total', q.total],
  ]);
}

export function receiptRequest(
  c: FinkokCredentials,
  q: { emisorRfc: string; uuid: string; type: 'C' | 'R' },
): FinkokRequest {
  return request('get_receipt', [
    ['username', c.username],
    ['password', c.password],
    ['taxpayer_id', q.emisorRfc],
    ['uuid', q.uuid],
    ['type', q.type],
  ]);
}

const reseller = (c: FinkokCredentials) =>
  [
    ['reseller_username', c.resellerUsername ?? c.username],
    ['reseller_password', c.resellerPassword ?? c.password],
  ] as const;

export function addRequest(
  c: FinkokCredentials,
  q: { rfc: string; typeUser: 'O' | 'P'; cer?: Buffer },
): FinkokRequest {
  return request('add', [
    ...reseller(c),
    ['taxpayer_id', q.rfc],
    ['type_user', q.typeUser],
    ['cer', q.cer?.toString('base64')],
  ]);
}

export function editRequest(
  c: FinkokCredentials,
  q: { rfc: string; status: 'A' | 'S'; cer?: Buffer },
): FinkokRequest {
  return request('edit', [
    ...reseller(c),
    ['taxpayer_id', q.rfc],
    ['status', q.status],
    ['cer', q.cer?.toString('base64')],
  ]);
}

export function getRequest(c: FinkokCredentials, rfc: string): FinkokRequest {
  return request('get', [...reseller(c), ['taxpayer_id', rfc]]);
}
