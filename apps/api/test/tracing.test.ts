import { randomBytes } from 'node:crypto';
import { createOrm } from '@cfdi/db';
import { dropDatabase } from '@cfdi/pac-sandbox';
import { createAccount } from '@cfdi/services';
import { testConfig, waitFor } from '@cfdi/testkit';
import { startApi } from './harness';
import { EKU, satUpload } from './merchant-fixtures';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver';
import { idempotencyKey, invoiceBody } from './stack';
import { freePort, startService, type ServiceProcess } from './traced-processes';
import { stopChild } from './child-processes';

// The sandbox PAC, the API and a worker, each in its own process from its real entry point, exporting their spans
// as OTLP/HTTP JSON to a receiver in this test; Temporal is the test's server.
const config = testConfig();
const sandboxDatabase = `${config.databaseUrl.replace(/\/[^/]*$/, '')}/pac_sandbox_test_${randomBytes(6).toString('hex')}`;
let receiver: OtlpReceiver;
let sandbox: ServiceProcess;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiUrl: string;
let sandboxUrl: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const [apiPort, sandboxPort, workerHealthPort] = [await freePort(), await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${apiPort}`;
  sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const traced = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    LOG_LEVEL: 'info',
  };
  sandbox = await startService(
    'apps/pac-sandbox/src/server.ts',
    {
      ...traced,
      PAC_SANDBOX_PORT: String(sandboxPort),
      PAC_SANDBOX_DATABASE_URL: sandboxDatabase,
      PAC_SANDBOX_NEXT_BUSINESS_DAY_RULE: 'false',
    },
    `${sandboxUrl}/health`,
  );
  const platform = {
    ...traced,
    PAC_SANDBOX_URL: sandboxUrl,
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(6).toString('hex')}`,
  };
  [api, worker] = await Promise.all([
    startService(
      'apps/api/src/server.ts',
      { ...platform, API_HOST: '127.0.0.1', API_PORT: String(apiPort) },
      `${apiUrl}/health`,
    ),
    startService(
      'apps/worker/src/main.ts',
      { ...platform, WORKER_HEALTH_PORT: String(workerHealthPort) },
      `http://127.0.0.1:${workerHealthPort}/ready`,
    ),
  ]);
}, 180_000);

afterAll(async () => {
  for (const service of [api, worker, sandbox]) if (service) await stopChild(service.child);
  await receiver?.close();
  await dropDatabase(sandboxDatabase).catch(() => undefined);
}, 60_000);

async function call(
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(apiUrl + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function stampingKey(): Promise<{ key: string; merchantId: string }> {
  const orm = await createOrm(config.databaseUrl);
  const account = await createAccount(orm.em.fork(), config, { name: `tracing ${Date.now()}` }).finally(() =>
    orm.close(),
  );
  const serie = `T${randomBytes(4).toString('hex').toUpperCase()}`;
  const merchant = await call('POST', '/v1/merchants', { key: account.testKey, body: { ...EKU, serie } });
  expect(merchant.status).toBe(201);
  const csd = await call('POST', `/v1/merchants/${merchant.body.id}/csd`, {
    key: account.testKey,
    body: satUpload('EKU9003173C9-csd'),
  });
  expect(csd.status).toBe(201);
  return { key: account.testKey, merchantId: merchant.body.id };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The spans of one trace, and whether a span descends from another (through any process). */
function traceOf(traceId: string) {
  const spans = receiver.spans.filter((span) => span.traceId === traceId);
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const descendsFrom = (span: ReceivedSpan, ancestor: ReceivedSpan) => {
    for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId))
      if (at === ancestor) return true;
    return false;
  };
  const find = (what: string, test: (span: ReceivedSpan) => boolean) => {
    const found = spans.find(test);
    if (!found)
      throw new Error(
        `no span for ${what} in trace ${traceId}: ${spans.map((s) => `${s.service} ${s.name}`).join(', ')}`,
      );
    return found;
  };
  return { spans, descendsFrom, find };
}

type SpanTests = Record<string, (span: ReceivedSpan) => boolean>;

/** Posts an invoice under a trace of its own, waits for the spans `wanted`, and returns them by name. */
async function stampTraced<W extends SpanTests>(body: unknown, key: string, wanted: (w: typeof SPANS) => W) {
  const traceId = hex(16);
  const callerSpanId = hex(8);
  const res = await call('POST', '/v1/invoices', {
    key,
    body,
    headers: { 'idempotency-key': idempotencyKey(), traceparent: `00-${traceId}-${callerSpanId}-01` },
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('traceparent')).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  const tests = { request: SPANS.request, ...wanted(SPANS) };
  // Each process exports on its own schedule (the API's span ends after its answer): wait for all, then name any missing.
  await waitFor(
    async () => (Object.values(tests).every((test) => traceOf(traceId).spans.some(test)) ? true : undefined),
    { timeoutMs: 20_000, what: 'the stamp’s spans' },
  ).catch(() => undefined);
  const trace = traceOf(traceId);
  const { request, ...inTrace } = Object.fromEntries(
    Object.entries(tests).map(([what, test]) => [what, trace.find(what, test)]),
  ) as { [what in keyof W | 'request']: ReceivedSpan };
  expect(request).toMatchObject({ name: 'POST /v1/invoices', parentSpanId: callerSpanId });
  expect(request.attributes['http.route']).toBe('/v1/invoices');
  for (const span of Object.values<ReceivedSpan>(inTrace))
    expect(trace.descendsFrom(span, request)).toBe(true);
  // Only statements travel, never the values bound to them (the XML, RFCs).
  expect(JSON.stringify(trace.spans)).not.toContain('EKU9003173C9');
  return { trace, traceId, spans: inTrace as { [what in keyof W]: ReceivedSpan } };
}

const pacCallOf = (service: string) => (s: ReceivedSpan) =>
  s.service === service && s.kind === 3 && String(s.attributes['http.url']).startsWith(sandboxUrl);
const recordingOf = (service: string) => (s: ReceivedSpan) =>
  s.service === service &&
  /update documents set status = 'stamped'/i.test(String(s.attributes['db.statement']));
const SPANS = {
  request: (s: ReceivedSpan) => s.service === 'cfdi-api' && s.kind === 2,
  pacServer: (s: ReceivedSpan) => s.service === 'cfdi-pac-sandbox' && s.kind === 2,
} satisfies SpanTests;

it('a stamp the API makes is one trace: the request, the PAC call and the recording SQL', async () => {
  const { key, merchantId } = await stampingKey();
  const { spans, traceId } = await stampTraced(invoiceBody(merchantId), key, ({ pacServer }) => ({
    pacCall: pacCallOf('cfdi-api'),
    pacServer,
    recording: recordingOf('cfdi-api'),
  }));
  expect(spans.pacServer.parentSpanId).toBe(spans.pacCall.spanId);

  // The API's log lines written during the request name its trace.
  const logged = api.lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line)] : []));
  expect(logged.some((line) => line.trace_id === traceId && line.span_id)).toBe(true);
}, 60_000);

it('a stamp handed to its workflow (files rendered on the files queue) stays one trace through Temporal', async () => {
  const { key, merchantId } = await stampingKey();
  const body = invoiceBody(merchantId);
  // More concepts than FILES_INLINE_MAX_ITEMS (50): the workflow renders its files after the stamp.
  body.items = Array.from({ length: 51 }, () => ({ ...body.items[0]!, quantity: 1 }));
  const { spans, trace } = await stampTraced(body, key, ({ pacServer }) => ({
    start: (s: ReceivedSpan) => s.service === 'cfdi-api' && /^UpdateWithStartWorkflow:/.test(s.name),
    workflow: (s: ReceivedSpan) =>
      s.service === 'cfdi-worker' && s.name === 'RunWorkflow:stampDocumentWorkflow',
    activity: (s: ReceivedSpan) => s.service === 'cfdi-worker' && s.name === 'RunActivity:stampDocument',
    pacCall: pacCallOf('cfdi-worker'),
    pacServer,
    recording: recordingOf('cfdi-worker'),
  }));
  expect(trace.descendsFrom(spans.workflow, spans.start)).toBe(true);
  expect(trace.descendsFrom(spans.activity, spans.workflow)).toBe(true);
  expect(trace.descendsFrom(spans.pacCall, spans.activity)).toBe(true);
  expect(spans.pacServer.parentSpanId).toBe(spans.pacCall.spanId);
  expect(trace.descendsFrom(spans.recording, spans.activity)).toBe(true);
}, 60_000);

it('a problem answer carries its trace id; request ids are unique', async () => {
  const { key } = await stampingKey();
  const traceId = hex(16);
  const first = await call('GET', '/v1/invoices/inv_unknown', {
    key,
    headers: { traceparent: `00-${traceId}-${hex(8)}-01` },
  });
  expect(first.status).toBe(404);
  expect(first.body).toMatchObject({ code: 'not_found', traceId });
  // Without a caller's trace, the API starts one and names it in both places.
  const second = await call('GET', '/v1/invoices/inv_unknown', { key });
  expect(second.body.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(second.headers.get('traceparent')).toContain(`-${second.body.traceId}-`);
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  expect(first.headers.get('x-request-id')).toMatch(uuid);
  expect(second.headers.get('x-request-id')).toMatch(uuid);
  expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
}, 30_000);

it('without OTEL_* variables nothing is traced: no traceparent, no traceId', async () => {
  const local = await startApi();
  try {
    const res = await local.request('GET', '/v1/nothing-here', {
      headers: { traceparent: `00-${hex(16)}-${hex(8)}-01` },
    });
    expect(res.status).toBe(404);
    expect(res.body.traceId).toBeUndefined();
    expect(res.headers.get('traceparent')).toBeNull();
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  } finally {
    await local.close();
  }
});
