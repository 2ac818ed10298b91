import { DOMParser, type Element } from '@xmldom/xmldom';
import { classifyStampAnswer } from '../src/finkok/classify-stamp';
import { FINKOK_OPERATIONS, FINKOK_SERVICES, type FinkokOperation } from '../src/finkok/protocol';
import * as R from '../src/finkok/requests';
import * as P from '../src/finkok/responses';
import { parseEnvelope, SOAP_ENV_NS } from '../src/soap/envelope';
import { fixture } from './helpers/fixtures';

const c: R.FinkokCredentials = {
  username: 'demo@example.com',
  password: 'demo-password',
  resellerUsername: 'reseller@example.com',
  resellerPassword: 'reseller-password',
};
const sealed = fixture('sealed-cfdi.xml');
const cancelacion = fixture('signed-cancelacion.xml');
const uuid = '4AE79BA9-2A66-4711-889E-3082D5EE5576';

const requests: Array<[FinkokOperation, R.FinkokRequest, string[]]> = [
  ['stamp', R.stampRequest(c, sealed), ['xml', 'username', 'password']],
  ['stamped', R.stampedRequest(c, sealed), ['xml', 'username', 'password']],
  ['query_pending', R.queryPendingRequest(c, uuid), ['username', 'password', 'uuid']],
  [
    'cancel_signature',
    R.cancelSignatureRequest(c, cancelacion),
    ['xml', 'username', 'password', 'store_pending'],
  ],
  [
    'get_sat_status',
    R.satStatusRequest(c, {
      emisorRfc: 'EKU9003173C9',
      receptorRfc: 'URE180429TM6',
      uuid,
      total: '31920.00',
    }),
    ['username', 'password', 'taxpayer_id', 'rtaxpayer_id', 'uuid', 'total'],
  ],
  [
    'get_receipt',
    R.receiptRequest(c, { emisorRfc: 'EKU9003173C9', uuid, type: 'C' }),
    ['username', 'password', 'taxpayer_id', 'uuid', 'type'],
  ],
  [
    'add',
    R.addRequest(c, { rfc: 'EKU9003173C9', typeUser: 'O' }),
    ['reseller_username', 'reseller_password', 'taxpayer_id', 'type_user'],
  ],
  [
    'edit',
    R.editRequest(c, { rfc: 'EKU9003173C9', status: 'S' }),
    ['reseller_username', 'reseller_password', 'taxpayer_id', 'status'],
  ],
  ['get', R.getRequest(c, 'EKU9003173C9'), ['reseller_username', 'reseller_password', 'taxpayer_id']],
];

describe('adapter requests match the recorded Finkok SOAP 1.1 shapes', () => {
  test.each(requests)('%s', (operation, request, params) => {
    expect(request.body).toBe(fixture(`${operation}.request.xml`));
    const service = FINKOK_SERVICES[FINKOK_OPERATIONS[operation]];
    expect(request.path).toBe(service.path);
    expect(request.soapAction).toBe(operation);

    const root = new DOMParser().parseFromString(request.body, 'text/xml').documentElement!;
    expect([root.namespaceURI, root.localName]).toEqual([SOAP_ENV_NS, 'Envelope']);
    const parsed = parseEnvelope(request.body);
    if (parsed.kind !== 'body') throw new Error(parsed.kind);
    expect([parsed.operation.namespaceURI, parsed.operation.localName]).toEqual([
      service.namespace,
      operation,
    ]);
    const children = Array.from(parsed.operation.childNodes).filter(
      (n) => n.nodeType === 1,
    ) as unknown as Element[];
    expect(children.map((e) => e.localName)).toEqual(params);
    expect(children.every((e) => e.namespaceURI === service.namespace)).toBe(true);
  });

  test('XML travels as base64Binary, encoded exactly once', () => {
    const body = fixture('stamp.request.xml');
    const b64 = /<ns1:xml>([^<]+)<\/ns1:xml>/.exec(body)![1]!;
    expect(Buffer.from(b64, 'base64').toString('utf8')).toBe(sealed);
    const cancel = /<ns1:xml>([^<]+)<\/ns1:xml>/.exec(fixture('cancel_signature.request.xml'))![1]!;
    expect(Buffer.from(cancel, 'base64').toString('utf8')).toBe(cancelacion);
  });

  test('service paths and namespaces are those of pac.md', () => {
    expect(FINKOK_SERVICES).toEqual({
      stamp: { path: '/servicios/soap/stamp', namespace: 'http://facturacion.finkok.com/stamp' },
      cancel: { path: '/servicios/soap/cancel', namespace: 'http://facturacion.finkok.com/cancel' },
      registration: {
        path: '/servicios/soap/registration',
        namespace: 'http://facturacion.finkok.com/registration',
      },
      // retentions.wsdl (pac.md §3.1): stamp, stamped under the same names as the stamp service.
      retentions: {
        path: '/servicios/soap/retentions',
        namespace: 'http://facturacion.finkok.com/retentions',
      },
    });
  });
});

function operationOf(name: string) {
  const parsed = parseEnvelope(fixture(name));
  if (parsed.kind !== 'body') throw new Error(`${name}: ${parsed.kind}`);
  return parsed.operation;
}

describe('recorded responses parse and classify', () => {
  test('stamp: stamped, with the CFDI, UUID, SatSeal and NoCertificadoSAT', () => {
    const op = operationOf('stamp.response.xml');
    expect([op.localName, op.namespaceURI]).toEqual(['stampResponse', 'http://facturacion.finkok.com/stamp']);
    const a = P.parseStampAnswer(op);
    expect(a.codEstatus).toBe('Comprobante timbrado satisfactoriamente');
    expect(a.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(a.xml).toContain(`UUID="${a.uuid}"`);
    expect(a.xml).toContain('<tfd:TimbreFiscalDigital');
    expect(a.satSeal).not.toBe('');
    expect(a.noCertificadoSat).toMatch(/^\d{20}$/);
    expect(a.incidences).toEqual([]);
    expect(classifyStampAnswer(a)).toEqual({ kind: 'stamped', previouslyStamped: false });
  });

  test('stamp 307 with data: stamped previously', () => {
    const a = P.parseStampAnswer(operationOf('stamp-307.response.xml'));
    expect(a.incidences.map((i) => i.code)).toEqual(['307']);
    expect(classifyStampAnswer(a)).toEqual({ kind: 'stamped', previouslyStamped: true });
  });

  test('stamp 307 without data and "recibido" without XML: follow up with stamped', () => {
    expect(
      classifyStampAnswer(P.parseStampAnswer(operationOf('stamp-307-without-data.response.xml'))),
    ).toEqual({
      kind: 'follow_up',
      reason: 'duplicate_without_data',
    });
    const recibido = P.parseStampAnswer(operationOf('stamp-recibido.response.xml'));
    expect(recibido.codEstatus).toBe('Comprobante recibido satisfactoriamente');
    expect(classifyStampAnswer(recibido)).toEqual({ kind: 'follow_up', reason: 'queued' });
  });

  test('stamp incidence 302: rejected; stamped 603: not stamped', () => {
    const rejected = P.parseStampAnswer(operationOf('stamp-302.response.xml'));
    expect(rejected.incidences[0]).toMatchObject({ code: '302', message: 'Sello mal formado o inválido' });
    expect(classifyStampAnswer(rejected)).toMatchObject({ kind: 'rejected', code: '302' });
    expect(classifyStampAnswer(P.parseStampAnswer(operationOf('stamped-603.response.xml')))).toMatchObject({
      kind: 'not_stamped',
      code: '603',
    });
  });

  test('cancel_signature: Folios/Folio{EstatusUUID, UUID, EstatusCancelacion}, Acuse, Fecha, RfcEmisor', () => {
    const a = P.parseCancelAnswer(operationOf('cancel_signature.response.xml'));
    expect(a.folios).toEqual([{ uuid, estatusUuid: '201', estatusCancelacion: 'En proceso' }]);
    expect(a.rfcEmisor).toBe('EKU9003173C9');
    expect(a.fecha).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(a.acuse).toContain('<Acuse xmlns="http://cancelacfd.sat.gob.mx"');
    expect(a.acuse).toContain('Id="SelloSAT"');
    const refused = P.parseCancelAnswer(operationOf('cancel_signature-302.response.xml'));
    expect(refused.folios).toEqual([]);
    expect(refused.codEstatus).toMatch(/^302 - /);
  });

  test('get_sat_status: sat{CodigoEstatus, Estado, EsCancelable, EstatusCancelacion, ValidacionEFOS}', () => {
    expect(P.parseSatStatusAnswer(operationOf('get_sat_status.response.xml'))).toEqual({
      codigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
      estado: 'Vigente',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: '',
      validacionEfos: '200',
      error: '',
    });
  });

  test('get_receipt, query_pending, registration add/get', () => {
    expect(P.parseReceiptAnswer(operationOf('get_receipt.response.xml'))).toMatchObject({
      success: true,
      uuid,
      error: '',
    });
    expect(P.parseQueryPendingAnswer(operationOf('query_pending.response.xml'))).toMatchObject({
      status: 'F',
      uuid,
    });
    expect(P.parseRegistrationAnswer(operationOf('add.response.xml'))).toEqual({
      success: true,
      message: 'Account Created successfully',
    });
    expect(P.parseGetAnswer(operationOf('get.response.xml')).users).toEqual([
      { rfc: 'EKU9003173C9', status: 'A', credit: '-1', typeUser: 'O' },
    ]);
  });
});
