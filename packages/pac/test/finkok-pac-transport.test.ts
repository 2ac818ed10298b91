import { FinkokPac } from '../src/finkok/finkok-pac';
import type { PacLogger } from '../src/logger';
import { NOT_PROCESSED_HEADER } from '../src/transport/classify-transport';
import { fixture } from './helpers/fixtures';
import { hang, reply, reset, resetMidResponse, scriptedServer } from './helpers/scripted-server';

type Server = Awaited<ReturnType<typeof scriptedServer>>;
let server: Server;
let pac: FinkokPac;
const logs: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
const logger: PacLogger = {
  info: (obj, msg) =>
    logs.push({ level: 'info', obj: obj as Record<string, unknown>, ...(msg ? { msg } : {}) }),
  warn: (obj, msg) =>
    logs.push({ level: 'warn', obj: obj as Record<string, unknown>, ...(msg ? { msg } : {}) }),
  error: (obj, msg) =>
    logs.push({ level: 'error', obj: obj as Record<string, unknown>, ...(msg ? { msg } : {}) }),
};
const sealed = fixture('sealed-cfdi.xml');
const stampResponse = fixture('stamp.response.xml');

beforeEach(async () => {
  server = await scriptedServer();
  logs.length = 0;
  pac = new FinkokPac({
    url: server.url,
    username: 'user@example.com',
    password: 'S3cret-pass',
    // Long enough for a loaded machine, short enough for the "hang" cases that wait it out.
    timeoutMs: 1000,
    logger,
    followUp: { attempts: 2, delayMs: 10 },
  });
});
afterEach(async () => {
  pac.close();
  await server.close();
});

test('sends SOAP 1.1 with a quoted SOAPAction, text/xml and the correlation id', async () => {
  server.next(reply(200, stampResponse));
  const result = await pac.stamp(sealed, { correlationId: 'doc_123' });
  expect(result).toMatchObject({ outcome: 'stamped', previouslyStamped: false });
  const [req] = server.received;
  expect(req).toMatchObject({ method: 'POST', url: '/servicios/soap/stamp' });
  expect(req!.headers.soapaction).toBe('"stamp"');
  expect(req!.headers['content-type']).toBe('text/xml; charset=utf-8');
  expect(req!.headers['x-correlation-id']).toBe('doc_123');
  expect(req!.body).toBe(
    fixture('stamp.request.xml')
      .replace('demo@example.com', 'user@example.com')
      .replace('demo-password', 'S3cret-pass'),
  );
});

test('logs every call with the correlation id, never the XML or the credentials', async () => {
  server.next(reply(200, stampResponse), hang);
  await pac.stamp(sealed, { correlationId: 'doc_123' });
  await pac.stamp(sealed, { correlationId: 'doc_456' });
  expect(logs.map((l) => [l.level, l.msg, l.obj.operation, l.obj.correlationId, l.obj.outcome])).toEqual([
    ['info', 'pac call', 'stamp', 'doc_123', 'stamped'],
    ['warn', 'pac request failed', 'stamp', 'doc_456', 'ambiguous'],
    ['warn', 'pac call', 'stamp', 'doc_456', 'ambiguous'],
  ]);
  expect(logs[0]!.obj).toMatchObject({
    uuid: expect.stringMatching(/^[0-9A-F-]{36}$/),
    previouslyStamped: false,
  });
  expect(logs[2]!.obj).toMatchObject({ reason: 'timeout_after_send' });
  const text = JSON.stringify(logs);
  expect(text).not.toContain('S3cret-pass');
  expect(text).not.toContain('Comprobante');
  expect(text).not.toContain(sealed.slice(200, 260));
});

const failures: Array<[string, Parameters<Server['next']>[0], Record<string, unknown>]> = [
  ['timeout after the request was sent', hang, { outcome: 'ambiguous', reason: 'timeout_after_send' }],
  [
    'connection reset after the request was sent',
    reset,
    { outcome: 'ambiguous', reason: 'reset_after_send' },
  ],
  ['connection reset mid-response', resetMidResponse, { outcome: 'ambiguous', reason: 'reset_after_send' }],
  ['HTTP 503', reply(503, 'busy'), { outcome: 'unavailable', reason: 'http_error' }],
  ['HTTP 502', reply(502, 'bad gateway'), { outcome: 'unavailable', reason: 'http_error' }],
  [
    'HTTP 500 marked as not processed',
    reply(500, 'down', { [NOT_PROCESSED_HEADER]: 'true' }),
    { outcome: 'unavailable', reason: 'http_error' },
  ],
  [
    'HTTP 500 without a marker',
    reply(500, 'oops'),
    { outcome: 'ambiguous', reason: 'http_error_after_send' },
  ],
  [
    'HTTP 504 from a gateway',
    reply(504, 'timeout'),
    { outcome: 'ambiguous', reason: 'http_error_after_send' },
  ],
  ['HTTP 404 (wrong URL)', reply(404, 'not found'), { outcome: 'unavailable', reason: 'http_error' }],
  [
    'SOAP Server fault',
    reply(
      500,
      '<senv:Envelope xmlns:senv="http://schemas.xmlsoap.org/soap/envelope/"><senv:Body><senv:Fault><faultcode>senv:Server</faultcode><faultstring>boom</faultstring></senv:Fault></senv:Body></senv:Envelope>',
    ),
    { outcome: 'ambiguous', reason: 'soap_fault' },
  ],
  [
    'SOAP Client fault',
    reply(
      500,
      '<senv:Envelope xmlns:senv="http://schemas.xmlsoap.org/soap/envelope/"><senv:Body><senv:Fault><faultcode>senv:Client</faultcode><faultstring>bad</faultstring></senv:Fault></senv:Body></senv:Envelope>',
    ),
    { outcome: 'unavailable', reason: 'http_error' },
  ],
  [
    '200 with an unreadable body',
    reply(200, 'not xml'),
    { outcome: 'ambiguous', reason: 'unrecognized_response' },
  ],
];

test.each(failures)('stamp: %s', async (_name, behaviour, expected) => {
  server.next(behaviour);
  expect(await pac.stamp(sealed)).toMatchObject(expected);
});

test('stamp: connection refused is unavailable', async () => {
  const url = server.url;
  await server.close();
  const refused = new FinkokPac({ url, username: 'u', password: 'p', timeoutMs: 300 });
  expect(await refused.stamp(sealed)).toMatchObject({ outcome: 'unavailable', reason: 'connection_failed' });
  refused.close();
  server = await scriptedServer();
});

test('307 without data is followed by stamped, which returns the original', async () => {
  server.next(
    reply(200, fixture('stamp-307-without-data.response.xml')),
    reply(200, fixture('stamp-307.response.xml')),
  );
  expect(await pac.stamp(sealed)).toMatchObject({ outcome: 'stamped', previouslyStamped: true });
  expect(server.received.map((r) => r.headers.soapaction)).toEqual(['"stamp"', '"stamped"']);
});

test('"recibido" without XML while stamped keeps answering 603: ambiguous (queued)', async () => {
  const miss = reply(200, fixture('stamped-603.response.xml'));
  server.next(reply(200, fixture('stamp-recibido.response.xml')), miss, miss);
  expect(await pac.stamp(sealed)).toMatchObject({ outcome: 'ambiguous', reason: 'queued' });
});

test('reads turn every transport failure into unavailable', async () => {
  server.next(hang, reset, reply(500, 'oops'));
  expect(await pac.lookupStamped(sealed)).toMatchObject({ outcome: 'unavailable', reason: 'timeout' });
  expect(await pac.satStatus({ emisorRfc: 'A', receptorRfc: 'B', total: '1', uuid: 'x' })).toMatchObject({
    outcome: 'unavailable',
  });
  expect(await pac.getCsd('EKU9003173C9')).toMatchObject({ outcome: 'unavailable', reason: 'http_error' });
});

test('keep-alive: consecutive calls reuse one connection', async () => {
  server.next(reply(200, stampResponse), reply(200, stampResponse));
  await pac.stamp(sealed);
  await pac.stamp(sealed);
  expect(server.received).toHaveLength(2);
  expect(server.received[1]!.headers.connection).toBe('keep-alive');
});

test('a caller abort is unavailable before sending and ambiguous after', async () => {
  const before = new AbortController();
  before.abort();
  expect(await pac.stamp(sealed, { signal: before.signal })).toMatchObject({
    outcome: 'unavailable',
    reason: 'aborted_before_send',
  });
  server.next(hang);
  const after = new AbortController();
  setTimeout(() => after.abort(), 50);
  expect(await pac.stamp(sealed, { signal: after.signal })).toMatchObject({
    outcome: 'ambiguous',
    reason: 'timeout_after_send',
  });
});
