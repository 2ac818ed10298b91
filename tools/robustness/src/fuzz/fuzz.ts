import path from 'node:path';
import fc from 'fast-check';
import { startStack, type Stack } from '../stack';
import type { LoopReading } from './api-entry';
import { PERMANENT_CASES } from './permanent-cases';
import { describeRequest, rawBodyOf, requestArbitrary, type FuzzRequest, type KnownIds } from './requests';

const LIMITS = { latencyMs: 2000, blockMs: 200 };
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export interface FuzzOptions {
  runs: number;
  seed?: number;
  log: (line: string) => void;
}

export interface FuzzReport {
  requests: number;
  statuses: Record<string, number>;
  /** Event-loop delay of the API process over the whole run (ms). */
  eventLoop: { p99Ms: number; maxBlockMs: number };
  slowestMs: number;
  /** Slow answers or loop blocks that did not happen again on two replays: the shared machine, not the request. */
  noise: number;
  /** The minimal failing request and why, or null. */
  failure: { request: string; reason: string; seed: number } | null;
}

interface Outcome {
  status: number;
  contentType: string;
  /** The problem's `code`, when the answer is one. */
  code?: string;
  /** The paths its `errors` name. */
  paths?: string[];
  ms: number;
  blockMs: number;
}

function problemOf(text: string): { code?: string; paths?: string[] } {
  try {
    const problem = JSON.parse(text) as { code?: string; errors?: { path?: string }[] } | null;
    return {
      ...(problem?.code ? { code: problem.code } : {}),
      ...(Array.isArray(problem?.errors) ? { paths: problem.errors.map((e) => String(e.path)) } : {}),
    };
  } catch {
    return {};
  }
}

/** Asks the API process (fuzz/api-entry.ts) over IPC. */
function loopProbe(stack: Stack) {
  let next = 0;
  const ask = (type: 'mark' | 'read') =>
    new Promise<LoopReading | undefined>((resolve) => {
      const id = next++;
      const onMessage = (message: { id: number; reading?: LoopReading }) => {
        if (message.id !== id) return;
        stack.api.off('message', onMessage);
        resolve(message.reading);
      };
      stack.api.on('message', onMessage);
      stack.api.send({ type, id });
    });
  return { mark: () => ask('mark'), read: async () => (await ask('read'))! };
}

/** 503s the API contract documents for a dependency that is not configured here (no Stripe keys, no SMTP server) or down. */
const DOCUMENTED_503 = new Set([
  'billing_unavailable',
  'email_unavailable',
  'encryption_unavailable',
  'pac_unavailable',
]);

/**
 * What is wrong with an answer, or null: any 5xx (but a documented 503 problem), an error that is not
 * problem+json, too slow, a blocked loop.
 */
export function verdict(outcome: Outcome): string | null {
  const documented =
    outcome.status === 503 &&
    outcome.contentType.startsWith('application/problem+json') &&
    DOCUMENTED_503.has(outcome.code ?? '');
  if (outcome.status >= 500 && !documented)
    return `answered ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
  if (outcome.status >= 400 && !outcome.contentType.startsWith('application/problem+json'))
    return `answered ${outcome.status} as ${outcome.contentType || 'no content type'}, not problem+json`;
  if (outcome.ms > LIMITS.latencyMs) return `took ${outcome.ms} ms (limit ${LIMITS.latencyMs})`;
  if (outcome.blockMs > LIMITS.blockMs)
    return `blocked the API's event loop for ${outcome.blockMs.toFixed(0)} ms (limit ${LIMITS.blockMs})`;
  return null;
}

async function prepare(stack: Stack): Promise<{ key: string; known: KnownIds }> {
  const { key, merchantId } = await stack.newMerchantAccount('FUZZ');
  const post = async (url: string, body: unknown) =>
    (
      await fetch(stack.base + url, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': `prep-${Math.random()}`,
        },
      })
    ).json() as Promise<{ id: string }>;
  const receiver = {
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
    regimenFiscal: '601',
  };
  const item = {
    productCode: '43211503',
    unitCode: 'H87',
    description: 'Equipo',
    quantity: 1,
    unitPrice: 500,
  };
  const ppd = await post('/v1/invoices', {
    merchantId,
    formaPago: '99',
    metodoPago: 'PPD',
    usoCfdi: 'G03',
    receiver,
    items: [item],
  });
  const pue = await post('/v1/invoices', {
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver,
    items: [item],
  });
  const payment = await post(`/v1/invoices/${ppd.id}/payments`, { monto: 100, formaPago: '03' });
  return {
    key,
    known: {
      merchant: [merchantId],
      invoice: [ppd.id, pue.id].filter(Boolean),
      payment: [payment.id].filter(Boolean),
    },
  };
}

/**
 * Runs the fuzzer on a stack of its own: first the permanent cases (every defect found so far), then `runs` requests
 * generated from the running API's OpenAPI document. Stops at the first failure, shrinks it with fast-check and
 * reports the minimal failing request.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const stack = await startStack({
    name: 'fuzz',
    log: options.log,
    apiEntry: path.join(__dirname, 'api-entry.ts'),
    env: { STAMP_WAIT_MS: '500' },
  });
  const report: FuzzReport = {
    requests: 0,
    statuses: {},
    eventLoop: { p99Ms: 0, maxBlockMs: 0 },
    slowestMs: 0,
    noise: 0,
    failure: null,
  };
  try {
    const { key, known } = await prepare(stack);
    const probe = loopProbe(stack);
    const openapi = (await (await fetch(`${stack.base}/v1/openapi.json`)).json()) as Parameters<
      typeof requestArbitrary
    >[0];
    const send = async (request: FuzzRequest): Promise<Outcome> => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (request.auth === 'key') headers.authorization = `Bearer ${key}`;
      if (request.auth === 'bad') headers.authorization = 'Bearer sk_test_not_a_key';
      if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
      const query = new URLSearchParams(request.query).toString();
      const body = request.rawBody
        ? rawBodyOf(request.rawBody)
        : request.body === undefined || request.method === 'GET'
          ? undefined
          : JSON.stringify(request.body);
      await probe.mark();
      const started = performance.now();
      const res = await fetch(`${stack.base}${request.path}${query ? `?${query}` : ''}`, {
        method: request.method,
        headers,
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      const ms = Math.round(performance.now() - started);
      const reading = await probe.read();
      report.requests++;
      report.statuses[res.status] = (report.statuses[res.status] ?? 0) + 1;
      report.slowestMs = Math.max(report.slowestMs, ms);
      report.eventLoop = {
        p99Ms: reading.p99Ms,
        maxBlockMs: Math.max(report.eventLoop.maxBlockMs, reading.maxMs),
      };
      const contentType = res.headers.get('content-type') ?? '';
      const problem = contentType.includes('json') ? problemOf(text) : {};
      return { status: res.status, contentType, ms, blockMs: reading.maxMs, ...problem };
    };

    /**
     * The verdict on a request. A slow answer or a loop block is replayed twice (with a fresh Idempotency-Key, so it
     * runs again rather than replaying): only one that happens every time is the request's doing. On two shared
     * cores the scheduler alone can hold a process for longer than the limits.
     */
    const judge = async (request: FuzzRequest): Promise<{ outcome: Outcome; problem: string | null }> => {
      const outcome = await send(request);
      const problem = verdict(outcome);
      if (
        !problem ||
        outcome.status >= 500 ||
        (outcome.status >= 400 && !outcome.contentType.startsWith('application/problem+json'))
      )
        return { outcome, problem };
      for (let replay = 0; replay < 2; replay++) {
        const again = await send(
          request.idempotencyKey
            ? { ...request, idempotencyKey: `${request.idempotencyKey}-${replay}` }
            : request,
        );
        if (!verdict(again)) {
          report.noise++;
          return { outcome: again, problem: null };
        }
      }
      return { outcome, problem };
    };

    // Warm-up: every list once and a tiny logo (the catalog index and sharp load on first use, by design).
    for (const url of [
      '/v1/catalogs/products?keyword=tornillo',
      '/v1/invoices',
      '/v1/merchants',
      '/v1/payments',
      '/v1/balance',
    ]) {
      await fetch(stack.base + url, { headers: { authorization: `Bearer ${key}` } });
    }
    await fetch(`${stack.base}/v1/merchants/${known.merchant![0]}/logo`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ logo: ONE_PIXEL_PNG }),
    });

    for (const permanent of PERMANENT_CASES(known)) {
      const { outcome, problem: general } = await judge(permanent.request);
      const problem =
        general ??
        (outcome.status !== permanent.status
          ? `answered ${outcome.status}, expected ${permanent.status}`
          : permanent.path !== undefined && !outcome.paths?.includes(permanent.path)
            ? `refused ${JSON.stringify(outcome.paths ?? [])}, expected ${permanent.path}`
            : null);
      if (problem) {
        report.failure = {
          request: `${permanent.name}: ${describeRequest(permanent.request)}`,
          reason: problem,
          seed: 0,
        };
        return report;
      }
    }

    const seed = options.seed ?? Date.now() % 2 ** 31;
    let lastReason = '';
    const result = await fc.check(
      fc.asyncProperty(requestArbitrary(openapi, known), async (request) => {
        const { problem } = await judge(request);
        if (problem) lastReason = problem;
        return problem === null;
      }),
      { numRuns: options.runs, seed, endOnFailure: false, maxSkipsPerRun: 0 },
    );
    if (result.failed && result.counterexample) {
      report.failure = {
        request: describeRequest(result.counterexample[0]),
        reason: lastReason || String(result.errorInstance),
        seed,
      };
    }
    return report;
  } finally {
    await stack.close();
  }
}
