import { buildCancelacionXml, finkokRequests as R, signCancelacion, type FinkokCredentials } from '@cfdi/pac';
import { DOMParser, type Element } from '@xmldom/xmldom';
import fs from 'node:fs';
import path from 'node:path';
import { startSandbox, type Harness } from './helpers/harness';
import { testCsd } from './helpers/sat-files';

/** The recorded Finkok-shaped exchanges the adapter's tests are written against (packages/pac). */
const fixtures = path.resolve(__dirname, '../../../packages/pac/test/fixtures');
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, name), 'utf8');
const RECORDED_UUID = '4AE79BA9-2A66-4711-889E-3082D5EE5576';
const c: FinkokCredentials = { username: 'demo@example.com', password: 'demo-password' };

/** Element names with namespaces, in document order, repeated siblings collapsed: the message's shape. */
function skeleton(xml: string): string[] {
  const out: string[] = [];
  const walk = (el: Element, prefix: string) => {
    const name = `${prefix}/{${el.namespaceURI ?? ''}}${el.localName}`;
    if (out[out.length - 1] !== name && !out.includes(name)) out.push(name);
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) walk(n as Element, name);
  };
  walk(new DOMParser().parseFromString(xml, 'text/xml').documentElement!, '');
  return out;
}

let h: Harness;
beforeAll(async () => {
  h = await startSandbox();
});
afterAll(() => h.close());

async function post(service: 'stamp' | 'cancel' | 'registration', operation: string, body: string) {
  const res = await fetch(`${h.url}/servicios/soap/${service}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${operation}"` },
  });
  expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
  return { status: res.status, body: await res.text() };
}

describe('the live sandbox answers the recorded requests with the recorded response shapes', () => {
  test('registration add / get, stamped (603), stamp, stamp again (307)', async () => {
    // The recorded sealed CFDI has Fecha 2026-11-21T11:55:00: valid against the pinned clock.
    const steps: Array<['stamp' | 'registration', string, string, string]> = [
      ['registration', 'add', 'add.request.xml', 'add.response.xml'],
      ['registration', 'get', 'get.request.xml', 'get.response.xml'],
      ['stamp', 'stamped', 'stamped.request.xml', 'stamped-603.response.xml'],
      ['stamp', 'stamp', 'stamp.request.xml', 'stamp.response.xml'],
      ['stamp', 'stamp', 'stamp.request.xml', 'stamp-307.response.xml'],
    ];
    for (const [service, operation, request, response] of steps) {
      const live = await post(service, operation, fixture(request));
      expect(live.status).toBe(200);
      expect(skeleton(live.body)).toEqual(skeleton(fixture(response)));
    }
  });

  test('query_pending, get_sat_status, cancel_signature, get_receipt', async () => {
    const stamped = await h.pac.stamp(fixture('sealed-cfdi.xml'));
    if (stamped.outcome !== 'stamped') throw new Error(stamped.outcome);
    const live = (text: string) => text.replaceAll(RECORDED_UUID, stamped.uuid);
    expect(
      skeleton((await post('stamp', 'query_pending', live(fixture('query_pending.request.xml')))).body),
    ).toEqual(skeleton(fixture('query_pending.response.xml')));
    expect(
      skeleton((await post('cancel', 'get_sat_status', live(fixture('get_sat_status.request.xml')))).body),
    ).toEqual(skeleton(fixture('get_sat_status.response.xml')));
    // The signed request embeds the UUID under the signature: sign a new one the same way.
    const cancel = signCancelacion(
      buildCancelacionXml({
        rfcEmisor: 'EKU9003173C9',
        fecha: h.fecha(0),
        folios: [{ uuid: stamped.uuid, motivo: '02' }],
      }),
      testCsd('EKU9003173C9-csd'),
    );
    expect(
      skeleton((await post('cancel', 'cancel_signature', R.cancelSignatureRequest(c, cancel).body)).body),
    ).toEqual(skeleton(fixture('cancel_signature.response.xml')));
    expect(
      skeleton((await post('cancel', 'get_receipt', live(fixture('get_receipt.request.xml')))).body),
    ).toEqual(skeleton(fixture('get_receipt.response.xml')));
  });
});

describe('protocol errors', () => {
  test('XML encoded twice (base64 of base64) → 705', async () => {
    const twice = Buffer.from(Buffer.from(fixture('sealed-cfdi.xml')).toString('base64')).toString('base64');
    const body = fixture('stamp.request.xml').replace(
      /<ns1:xml>[^<]+<\/ns1:xml>/,
      `<ns1:xml>${twice}</ns1:xml>`,
    );
    const live = await post('stamp', 'stamp', body);
    expect(live.body).toContain('<s0:CodigoError>705</s0:CodigoError>');
  });

  test('SOAPAction naming another operation, or an operation of another service → SOAP Client fault', async () => {
    const wrongAction = await post('stamp', 'stamp', fixture('query_pending.request.xml'));
    expect(wrongAction.status).toBe(500);
    expect(wrongAction.body).toContain('<faultcode>senv:Client</faultcode>');
    const wrongService = await post('cancel', 'stamp', fixture('stamp.request.xml'));
    expect(wrongService.body).toContain('operation namespace must be http://facturacion.finkok.com/cancel');
  });
});
