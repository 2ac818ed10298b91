import { randomBytes } from 'node:crypto';
import { loadConfig } from '@cfdi/config';
import { createAccount } from '@cfdi/services';
import { startStack, type Stack } from '../stack';
import { getJson, invoiceBody, postUntilFinal, type Answer } from '../drill/requests';
import {
  awaitSettlement,
  documentCounts,
  QUICK_SETTLEMENT_ENV,
  verifySettlement,
  type RunOptions,
  type RunReport,
} from '../settlement';

/**
 * The production topology on one machine: the Temporal server on PostgreSQL, this many API replicas behind no
 * load balancer (the client picks one, and moves to the other when it must repeat a request) and this many workers.
 */
export const REPLICA_TOPOLOGY = { apis: 2, workers: 3 } as const;

/**
 * Fixed names and ports of this run (one at a time on a machine): databases `topo_…`, Redis db 12. Every port is
 * below Linux's ephemeral range (32768–60999): a fixed port inside it can be the local end of another process's
 * outgoing connection at that moment (the Temporal server once failed to start on 47400, "address already in use").
 */
export const REPLICA_PORTS = {
  apiFrom: 3400,
  pac: 3410,
  temporalFrom: 3420,
  temporalMembershipFrom: 3490,
} as const;

export interface ReplicaRunOptions extends RunOptions {
  /** Invoices to stamp through both APIs; one in five is PPD and gets a payment, some PUE ones are cancelled. */
  invoices: number;
  /** Pairs of requests that share one Idempotency-Key, each pair sent to both APIs at the same moment. */
  idempotencyRaces: number;
}

export interface ReplicaReport extends RunReport {
  chaos: { workerKilled: string; apiRestarted: string };
  rateLimit: { limit: number; statuses: Record<string, number> };
  seconds: { startup: number; issuing: number; settling: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FINAL = (status: number) => status > 0 && status < 500 && status !== 409 && status !== 429;

/**
 * Runs the platform as production does (issue #20) and proves every document ends exactly once: stamps, payments
 * and cancellations through both APIs at once while one worker is SIGKILLed and one API restarted; the same
 * Idempotency-Key sent to both APIs at the same moment; a per-account rate limit counted across both. Then the
 * drill's settlement checks (no UUID twice, one consume per document, nothing reserved or stuck, `cfdi ledger
 * verify` clean) plus: every request got a final answer, and every document in force is one an answer names.
 */
export async function runReplicas(options: ReplicaRunOptions): Promise<ReplicaReport> {
  const startedAt = Date.now();
  const stack = await startStack({
    name: 'replicas',
    databasePrefix: 'topo_',
    temporal: 'postgres',
    ...REPLICA_TOPOLOGY,
    ports: REPLICA_PORTS,
    log: options.log,
    env: { REDIS_URL: redisDatabase12(), ...QUICK_SETTLEMENT_ENV },
  });
  const report: ReplicaReport = {
    issued: { invoices: 0, payments: 0, cancellations: 0 },
    answers: {},
    chaos: { workerKilled: '', apiRestarted: '' },
    rateLimit: { limit: 0, statuses: {} },
    documents: {},
    seconds: { startup: (Date.now() - startedAt) / 1000, issuing: 0, settling: 0 },
    violations: {},
  };
  let failed = false;
  try {
    const { accountId, key, merchantId } = await stack.newMerchantAccount('TOPO');
    const race = await idempotencyRaces(stack, key, merchantId, options);
    report.rateLimit = await rateLimitAcrossReplicas(stack, options.log);
    const answered = new Set<string>(race.ids);
    const unanswered: string[] = [...race.unanswered];
    const count = (what: string, answer: Answer, label: string) => {
      report.answers[`${what} ${answer.status}`] = (report.answers[`${what} ${answer.status}`] ?? 0) + 1;
      if (FINAL(answer.status) && answer.body?.id) answered.add(answer.body.id);
      if (!FINAL(answer.status))
        unanswered.push(`${label}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    };

    const started = Date.now();
    const deadline = () => Date.now() + 180_000;
    // Replica i % 2 first; a repetition moves to the other, as a load balancer would.
    const replicasFor = (i: number) => [
      stack.bases[i % stack.bases.length]!,
      ...stack.bases.filter((_, j) => j !== i % stack.bases.length),
    ];
    const chaos = async (i: number) => {
      if (i === Math.floor(options.invoices * 0.25)) {
        stack.killWorker(1);
        report.chaos.workerKilled = `worker-1 SIGKILLed after ${i} invoices`;
        options.log(report.chaos.workerKilled);
      }
      if (i === Math.floor(options.invoices * 0.5)) {
        report.chaos.apiRestarted = `api-1 restarted (SIGTERM, start) after ${i} invoices`;
        options.log(report.chaos.apiRestarted);
        await stack.restartApi(1);
      }
      // Brought back later, as a process manager would: its replacement joins the pollers mid-run.
      if (i === Math.floor(options.invoices * 0.75)) stack.startWorker(1);
    };
    let next = 0;
    // Chaos runs beside the lanes (an API restart must not hold one lane up); a failure of it fails the run below.
    const chaosDone: Promise<void>[] = [];
    const chaosFailures: unknown[] = [];
    const lane = async () => {
      while (next < options.invoices) {
        const i = next++;
        chaosDone.push(chaos(i).catch((error: unknown) => void chaosFailures.push(error)));
        const ppd = i % 5 === 0;
        const invoice = await postUntilFinal(
          replicasFor(i),
          key,
          '/v1/invoices',
          invoiceBody(merchantId, i, ppd),
          deadline(),
        );
        report.issued.invoices++;
        count('invoice', invoice, `invoice ${i}`);
        if (invoice.status !== 201) continue;
        if (ppd) {
          report.issued.payments++;
          const body = { monto: Math.floor(invoice.body.total * 50) / 100, formaPago: '03' };
          count(
            'payment',
            await postUntilFinal(
              replicasFor(i + 1),
              key,
              `/v1/invoices/${invoice.body.id}/payments`,
              body,
              deadline(),
            ),
            `payment of ${invoice.body.id}`,
          );
        } else if (i % 7 === 0) {
          report.issued.cancellations++;
          count(
            'cancel',
            await postUntilFinal(
              replicasFor(i + 1),
              key,
              `/v1/invoices/${invoice.body.id}/cancel`,
              { motivo: '02' },
              deadline(),
            ),
            `cancel of ${invoice.body.id}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, lane));
    await Promise.all(chaosDone);
    if (chaosFailures.length) throw chaosFailures[0];
    report.seconds.issuing = (Date.now() - started) / 1000;
    options.log(
      `issued ${JSON.stringify(report.issued)} in ${report.seconds.issuing} s: ${JSON.stringify(report.answers)}`,
    );

    report.seconds.settling = (
      await awaitSettlement(stack.orm, {
        timeoutSeconds: options.settleTimeoutSeconds,
        pollMs: 1000,
        log: options.log,
      })
    ).seconds;
    report.documents = await documentCounts(stack.orm);
    const documents = (await stack.orm.em
      .fork()
      .execute('select id, status from documents where account_id = ?', [accountId])) as {
      id: string;
      status: string;
    }[];
    const ids = documents.map((d) => d.id);
    const failedIds = new Set(documents.filter((d) => d.status === 'stamp_failed').map((d) => d.id));
    report.violations = {
      ...(await verifySettlement(stack.orm, stack.pacDatabaseUrl, stack.databaseUrl)),
      unanswered,
      // A repetition on the other replica that created a second document would show here. A 503 (PAC or database
      // unavailable) fails and refunds its document and releases the key, so the repetition makes a new one: the
      // failed one is named by no answer, by design (its refund is checked above).
      unnamedDocumentsInForce: ids.filter((id) => !answered.has(id) && !failedIds.has(id)),
      idempotencyRaces: race.violations,
      rateLimitAcrossReplicas:
        report.rateLimit.statuses['200'] === report.rateLimit.limit &&
        (report.rateLimit.statuses['429'] ?? 0) > 0
          ? []
          : [`limit ${report.rateLimit.limit}: ${JSON.stringify(report.rateLimit.statuses)}`],
    };
    failed = Object.values(report.violations).some((v) => v.length > 0);
    return report;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A failed run keeps its databases for inspection.
    await stack.close({ dropDatabases: !failed });
  }
}

/**
 * Each pair: one Idempotency-Key and body sent to both APIs at the same moment, each repeated on its replica until
 * final. Both must end with the same document, and the pairs must have created exactly one document each.
 */
async function idempotencyRaces(stack: Stack, key: string, merchantId: string, options: ReplicaRunOptions) {
  const before = await documentsInForce(stack);
  const violations: string[] = [];
  const ids: string[] = [];
  const unanswered: string[] = [];
  await Promise.all(
    Array.from({ length: options.idempotencyRaces }, async (_, i) => {
      const idempotencyKey = `race-${i}-${randomBytes(6).toString('hex')}`;
      const body = invoiceBody(merchantId, 10_000 + i, false);
      const answers = await Promise.all(
        stack.bases.map((base) =>
          postUntilFinal(base, key, '/v1/invoices', body, Date.now() + 120_000, idempotencyKey),
        ),
      );
      const answerIds = new Set(answers.map((a) => a.body?.id));
      if (answers.some((a) => !FINAL(a.status)))
        unanswered.push(`race ${idempotencyKey}: ${answers.map((a) => a.status).join(', ')}`);
      if (answerIds.size !== 1)
        violations.push(`${idempotencyKey}: ${answers.map((a) => `${a.status} ${a.body?.id}`).join(' / ')}`);
      ids.push(...[...answerIds].filter((id): id is string => typeof id === 'string'));
    }),
  );
  const created = (await documentsInForce(stack)) - before;
  if (created !== options.idempotencyRaces)
    violations.push(`${options.idempotencyRaces} keys left ${created} documents in force`);
  options.log(
    `idempotency races: ${options.idempotencyRaces} keys sent to ${stack.bases.length} APIs at once, ${created} documents in force`,
  );
  return { violations, ids, unanswered };
}

/** The machine's Redis (REDIS_URL, as the suite sets it), database 12: rate-limit counters of its own. */
function redisDatabase12(): string {
  const url = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  url.pathname = '/12';
  return url.toString();
}

/** Documents not failed: a 503 fails and refunds its document and frees the key, and the repetition makes another. */
async function documentsInForce(stack: Stack): Promise<number> {
  return (
    (
      await stack.orm.em
        .fork()
        .execute(`select count(*)::int as n from documents where status <> 'stamp_failed'`)
    )[0] as { n: number }
  ).n;
}

/**
 * An account limited to 20 requests a minute, asked 30 times alternately through both APIs: exactly 20 pass when
 * the counter is shared (in Redis), 30 would if each replica counted on its own. Starts early enough in a minute
 * that the fixed window does not roll over mid-test.
 */
async function rateLimitAcrossReplicas(stack: Stack, log: (line: string) => void) {
  const limit = 20;
  const account = await createAccount(stack.orm.em.fork(), loadConfig({ ...process.env, ...stack.env }), {
    name: 'rate-limited',
    rateLimitPerMinute: limit,
  });
  const secondsLeft = () => 60 - (Math.floor(Date.now() / 1000) % 60);
  if (secondsLeft() < 20) await sleep(secondsLeft() * 1000 + 500);
  const statuses: Record<string, number> = {};
  for (let i = 0; i < limit + 10; i++) {
    const { status } = await getJson(stack.bases[i % stack.bases.length]!, account.testKey, '/v1/balance');
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  log(`rate limit ${limit}/min across ${stack.bases.length} APIs: ${JSON.stringify(statuses)}`);
  return { limit, statuses };
}
