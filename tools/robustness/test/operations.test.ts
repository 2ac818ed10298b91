import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { exportedNames, metricNamesIn, parsePrometheusText } from '@cfdi/testkit';
import { auditLedger, recordLedgerAudit } from '@cfdi/services';
import { invoiceBody } from '../src/drill/requests';
import { startStack, type Stack } from '../src/stack';

// Issue #38's operations checks on real processes (tsx-run API and workers, the sandbox PAC, a Temporal dev server):
// the metrics that deploy/'s alert rules and dashboard query are exported, and the API and the worker drain on
// SIGTERM under load with no request lost and no 5xx.
const root = path.resolve(__dirname, '../../..');
const TOKEN = 'ops-metrics-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let stack: Stack;
let key: string;
let merchantId: string;
let accountId: string;

beforeAll(async () => {
  stack = await startStack({
    name: 'ops',
    apis: 2,
    workers: 2,
    workerHealth: true,
    env: { METRICS_TOKEN: TOKEN, DRAIN_DELAY_MS: '1500' },
    log: (line) => process.stderr.write(`[ops] ${line}\n`),
  });
  ({ key, merchantId, accountId } = await stack.newMerchantAccount());
  for (const url of stack.workerHealth) await until(async () => (await fetch(`${url}/ready`)).ok, 180_000);
}, 300_000);
afterAll(async () => {
  await stack?.close();
}, 60_000);

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** One stamp request, never retried: its status, or 0 when the connection failed. */
async function stamp(base: string, i: number): Promise<number> {
  try {
    const res = await fetch(`${base}/v1/invoices`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': `ops-${i}-${Date.now()}`,
      },
      body: JSON.stringify(invoiceBody(merchantId, i, false)),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status >= 300) process.stderr.write(`[ops] stamp ${i}: ${res.status} ${text.slice(0, 500)}\n`);
    return res.status;
  } catch {
    return 0;
  }
}

const scrape = async (url: string) => {
  const res = await fetch(`${url}/metrics`, { headers: auth });
  expect(res.status).toBe(200);
  return res.text();
};

test('every metric the alert rules and the dashboard query is exported by the API or the worker', async () => {
  expect(await stamp(stack.bases[0]!, 0)).toBe(201);
  // The ledger audit's gauges exist once an audit ran (the worker's schedule runs one every 15 minutes).
  await recordLedgerAudit(stack.orm.em.fork(), await auditLedger(stack.orm.em.fork()));
  // The worker's /metrics is behind the same token as the API's.
  expect((await fetch(`${stack.workerHealth[0]}/metrics`)).status).toBe(401);
  const texts = [
    await scrape(stack.bases[0]!),
    ...(await Promise.all(stack.workerHealth.map((url) => scrape(url)))),
  ];
  const exported = new Set(texts.flatMap((text) => [...exportedNames(text)]));
  const rules = parse(fs.readFileSync(path.join(root, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
    groups: { rules: { expr: string }[] }[];
  };
  const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'deploy/grafana/cfdi.json'), 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  const expressions = [
    ...rules.groups.flatMap((g) => g.rules.map((r) => r.expr)),
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
  ];
  const used = new Set(expressions.flatMap(metricNamesIn));
  expect(used.size).toBeGreaterThan(20);
  expect([...used].filter((name) => !exported.has(name))).toEqual([]);

  // The stamp shows in the stamp counter and PAC histogram of the process that made it (the API, for this one).
  const samples = texts.flatMap((text) => parsePrometheusText(text).samples);
  const total = (name: string, labels: Record<string, string>) =>
    samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((sum, s) => sum + s.value, 0);
  expect(total('cfdi_stamps_total', { outcome: 'stamped' })).toBeGreaterThanOrEqual(1);
  expect(
    total('cfdi_pac_request_duration_seconds_count', {
      operation: 'stamp',
      outcome: 'stamped',
      mode: 'test',
    }),
  ).toBeGreaterThanOrEqual(1);
  expect(total('temporal_num_pollers', {})).toBeGreaterThan(0);
}, 120_000);

test('an API draining on SIGTERM fails /ready at once, finishes what it accepted, and loses no request', async () => {
  const [kept, draining] = stack.bases as [string, string];
  // What a load balancer does: route only to replicas whose /ready answered 200 last time it looked.
  const ready = new Map([
    [kept, true],
    [draining, true],
  ]);
  const seen: string[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      for (const base of [kept, draining]) {
        const answer = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(10_000) })
          .then(async (res) => `${res.status} ${((await res.json()) as { status: string }).status}`)
          .catch(() => 'down');
        ready.set(base, answer.startsWith('200'));
        if (base === draining && seen.at(-1) !== answer) seen.push(answer);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const answers: Record<string, number> = {};
  let sentToDraining = 0;
  let loading = true;
  let n = 1000;
  const lane = async () => {
    while (loading) {
      const targets = [kept, draining].filter((base) => ready.get(base));
      const base = targets[n % targets.length]!;
      if (base === draining) sentToDraining++;
      const status = await stamp(base, n++);
      answers[status] = (answers[status] ?? 0) + 1;
    }
  };
  const lanes = Array.from({ length: 4 }, lane);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const sentBefore = sentToDraining;
  const exitCode = await stack.terminateApi(1);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  loading = false;
  await Promise.all(lanes);
  polling = false;
  await poller;

  expect(sentBefore).toBeGreaterThan(0);
  expect(exitCode).toBe(0);
  // Ready, then 503 `draining` while it still answered, never ready again (after the drain delay the closing
  // server refuses new connections and answers 503 on open ones, which no request of the load was sent on).
  expect(seen[0]).toBe('200 ready');
  expect(seen.slice(1)).toContain('503 draining');
  expect(seen.slice(seen.indexOf('503 draining'))).not.toContain('200 ready');
  expect(seen.at(-1)).toBe('down');
  expect(Object.keys(answers).filter((status) => !['201', '202'].includes(status))).toEqual([]);
}, 180_000);

test('a worker draining on SIGTERM fails /ready at once, stays live, and every stamp still completes', async () => {
  const [health] = stack.workerHealth as [string];
  const base = stack.bases[0]!;
  const before = Date.now();
  const answers: Record<string, number> = {};
  let n = 2000;
  let loading = true;
  const lane = async () => {
    while (loading) {
      const status = await stamp(base, n++);
      answers[status] = (answers[status] ?? 0) + 1;
    }
  };
  const lanes = Array.from({ length: 4 }, lane);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const exited = stack.terminateWorker(0);
  // Right after the signal: not ready (draining), still live, until the process is gone.
  const probes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const [readyRes, liveRes] = await Promise.all(
      ['ready', 'live'].map((probe) =>
        fetch(`${health}/${probe}`, { signal: AbortSignal.timeout(2000) }).then(
          async (res) => `${probe} ${res.status} ${JSON.stringify(await res.json())}`,
          () => `${probe} down`,
        ),
      ),
    );
    probes.push(readyRes!, liveRes!);
    if (readyRes!.endsWith('down')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exitCode = await exited;
  await new Promise((resolve) => setTimeout(resolve, 2000));
  loading = false;
  await Promise.all(lanes);

  expect(exitCode).toBe(0);
  expect(probes[0]).toMatch(/^ready 503 .*"draining":true/);
  expect(probes[1]).toMatch(/^live 200 /);
  expect(Object.keys(answers).filter((status) => !['201', '202'].includes(status))).toEqual([]);
  // Every document of the run ends stamped: none failed, none left to reconcile, none still waiting.
  let rows: { status: string; needs_reconciliation: boolean; n: number }[] = [];
  await until(async () => {
    rows = await stack.orm.em.fork().execute(
      `select status, needs_reconciliation, count(*)::int as n from documents
        where account_id = ? and created_at >= ? group by 1, 2`,
      [accountId, new Date(before)],
    );
    return rows.every((row) => row.status !== 'stamping');
  }, 120_000);
  expect(rows.map(({ status, needs_reconciliation }) => ({ status, needs_reconciliation }))).toEqual([
    { status: 'stamped', needs_reconciliation: false },
  ]);
  expect(rows[0]!.n).toBeGreaterThan(4);
}, 240_000);
