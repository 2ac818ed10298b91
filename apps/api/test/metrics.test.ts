import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { parsePrometheusText, type Sample } from '@cfdi/testkit';
import { startApi, type ApiHarness } from './harness';
import { newMerchant, PINNED_NOW, satUpload } from './merchant-fixtures';

let sandbox: RunningPacSandbox;
let api: ApiHarness;
beforeAll(async () => {
  sandbox = await startPacSandbox({ now: () => PINNED_NOW });
  api = await startApi({ PAC_SANDBOX_URL: sandbox.url }, { now: () => PINNED_NOW });
});
afterAll(async () => {
  await api?.close();
  await sandbox?.close();
});

async function scrape(harness: ApiHarness): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(`${harness.url}/metrics`);
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, samples: parsePrometheusText(text).samples };
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

it('counts requests by method, route template and status class, never by raw path', async () => {
  const { testKey } = await api.newAccount();
  const merchant = await newMerchant(api, testKey);
  expect((await api.request('GET', `/v1/merchants/${merchant.id}`, { key: testKey })).status).toBe(200);
  expect((await api.request('GET', '/v1/merchants/mer_doesnotexist', { key: testKey })).status).toBe(404);
  expect((await api.request('GET', '/no/such/path/123')).status).toBe(404);

  const { text, samples } = await scrape(api);
  const count = (route: string, statusClass: string) =>
    value(samples, 'cfdi_http_request_duration_seconds_count', {
      method: 'GET',
      route,
      status_class: statusClass,
    });
  expect(count('/v1/merchants/:id', '2xx')).toBeGreaterThanOrEqual(1);
  expect(count('/v1/merchants/:id', '4xx')).toBeGreaterThanOrEqual(1);
  expect(count('unmatched', '4xx')).toBeGreaterThanOrEqual(1);
  expect(text).not.toContain(merchant.id);
  expect(text).not.toContain('/no/such/path');
  // Node's runtime and process metrics.
  for (const name of [
    'process_cpu_seconds_total',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_heap_size_used_bytes',
  ])
    expect(value(samples, name)).toBeGreaterThanOrEqual(0);
}, 60_000);

it('times PAC calls by operation, outcome and mode', async () => {
  const down = await startApi({ PAC_SANDBOX_URL: 'http://127.0.0.1:1' }, { now: () => PINNED_NOW });
  try {
    const { testKey } = await api.newAccount();
    const merchant = await newMerchant(api, testKey);
    const registered = await api.request('POST', `/v1/merchants/${merchant.id}/csd`, {
      key: testKey,
      body: satUpload('EKU9003173C9-csd'),
    });
    expect(registered.status).toBe(201);
    const other = await newMerchant(api, testKey);
    const refused = await down.request('POST', `/v1/merchants/${other.id}/csd`, {
      key: testKey,
      body: satUpload('EKU9003173C9-csd'),
    });
    expect(refused.status).toBe(503);

    const ok = (await scrape(api)).samples;
    const pacCount = (samples: Sample[], labels: Record<string, string>) =>
      samples
        .filter(
          (s) =>
            s.name === 'cfdi_pac_request_duration_seconds_count' &&
            Object.entries(labels).every(([k, v]) => s.labels[k] === v),
        )
        .reduce((sum, s) => sum + s.value, 0);
    // A first registration adds the RFC; one the PAC already knows is edited instead.
    expect(pacCount(ok, { mode: 'test', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(
      ok.some(
        (s) => s.name === 'cfdi_pac_request_duration_seconds_count' && /Csd$/.test(s.labels.operation!),
      ),
    ).toBe(true);
    const failing = (await scrape(down)).samples;
    expect(pacCount(failing, { mode: 'test', outcome: 'unavailable' })).toBeGreaterThanOrEqual(1);
    expect(pacCount(failing, { outcome: 'ok' })).toBe(0);
  } finally {
    await down.close();
  }
}, 60_000);

it('reports the webhook outbox backlog and its oldest event, and the platform gauges', async () => {
  const { accountId } = await api.newAccount();
  const id = `evt_metrics_${Date.now()}`;
  await api.orm.em.fork().execute(
    // Leased for an hour, as by a dispatcher that died holding it: the dispatchers of suites running beside this one
    // (they share the database) leave it undelivered while the gauges are read.
    `insert into events (id, account_id, livemode, type, data, created_at, dispatch_lease_until)
       values (?, ?, false, 'invoice.stamped', '{"object":{}}', now() - interval '10 minutes', now() + interval '1 hour')`,
    [id, accountId],
  );
  try {
    const { samples } = await scrape(api);
    expect(value(samples, 'cfdi_webhook_backlog')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'cfdi_webhook_backlog_oldest_seconds')).toBeGreaterThanOrEqual(600);
    for (const name of [
      'cfdi_webhook_endpoints_failing',
      'cfdi_document_files_failed',
      'cfdi_reconciliations_waiting',
    ])
      expect(value(samples, name)).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'cfdi_work_without_workflow', { work: 'stamping' })).toBeGreaterThanOrEqual(0);
  } finally {
    await api.orm.em.fork().execute('delete from events where id = ?', [id]);
  }
}, 60_000);
