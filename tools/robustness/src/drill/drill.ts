import { startStack } from '../stack';
import { getJson, invoiceBody, postUntilFinal } from './requests';
import {
  awaitSettlement,
  documentCounts,
  QUICK_SETTLEMENT_ENV,
  unsettled,
  verifySettlement,
  type RunOptions,
  type RunReport,
} from '../settlement';

export interface DrillOptions extends RunOptions {
  /** Invoices to stamp; some are PPD and get a payment, some PUE ones are cancelled. */
  stamps: number;
  /** SIGKILL the worker every this many seconds (0: never on a timer). */
  killEverySeconds: number;
  /** Worker kills at evenly spread points of the run, on top of the timer (the short run's "2 kills"). */
  killsAtMilestones: number;
  /** Share of stamps that meet a PAC that never answers (timeout after send). */
  timeoutRate: number;
  /** Share of stamps that meet an HTTP 500 (half before processing, half after). */
  errorRate: number;
  /** Share of stamps that meet a reset (half before processing, half after) or 2 s of latency. */
  otherFaultRate: number;
  /** Stop issuing new work after this many seconds (the long run on a shared machine); then settle. */
  maxIssueSeconds: number;
}

export interface DrillReport extends RunReport {
  chaos: {
    workerKills: number;
    temporalRestarts: number;
    pgTerminated: number;
    faultsArmed: Record<string, number>;
  };
  seconds: { issuing: number; settling: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the chaos drill on a stack of its own: stamps, payments and cancellations at `concurrency` while the worker
 * is SIGKILLed, the Temporal dev server restarted once, the API's PostgreSQL connections terminated once and the
 * sandbox PAC armed with faults; then waits for settlement and checks the money and document invariants.
 */
export async function runDrill(options: DrillOptions): Promise<DrillReport> {
  const stack = await startStack({
    name: 'drill',
    log: options.log,
    env: QUICK_SETTLEMENT_ENV,
  });
  const report: DrillReport = {
    issued: { invoices: 0, payments: 0, cancellations: 0 },
    answers: {},
    chaos: { workerKills: 0, temporalRestarts: 0, pgTerminated: 0, faultsArmed: {} },
    documents: {},
    seconds: { issuing: 0, settling: 0 },
    violations: {},
  };
  let failed = false;
  try {
    const { key, merchantId } = await stack.newMerchantAccount('DRILL');
    const started = Date.now();
    const issueDeadline = started + options.maxIssueSeconds * 1000;
    const count = (what: string, status: number) =>
      (report.answers[`${what} ${status}`] = (report.answers[`${what} ${status}`] ?? 0) + 1);

    // A kill waits until the worker restarted by the previous one has settled a document: on a loaded machine a
    // worker takes longer than the kill interval to bundle its workflows, and killing it before would test nothing.
    const settledCount = async () =>
      (
        (
          await stack.orm.em
            .fork()
            .execute(`select count(*)::int as n from documents where status <> 'stamping'`)
        )[0] as { n: number }
      ).n;
    let settledAtLastKill = -1;
    const killWorker = async (waitForProgress: boolean) => {
      let settled = await settledCount();
      for (
        const until = Date.now() + 180_000;
        settled <= settledAtLastKill && waitForProgress && Date.now() < until;
        settled = await settledCount()
      )
        await sleep(1000);
      if (settled <= settledAtLastKill) return;
      settledAtLastKill = settled;
      stack.killWorker();
      report.chaos.workerKills++;
      options.log(`SIGKILL worker (#${report.chaos.workerKills})`);
      await sleep(1000);
      stack.startWorker();
    };
    const arm = async (kind: string, params: Record<string, unknown> = {}) => {
      report.chaos.faultsArmed[kind] = (report.chaos.faultsArmed[kind] ?? 0) + 1;
      await fetch(`${stack.pacUrl}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'stamp', kind, count: 1, params }),
      });
    };
    const maybeArmFault = async () => {
      const r = Math.random();
      const { timeoutRate: t, errorRate: e, otherFaultRate: o } = options;
      if (r < t) await arm('hang');
      else if (r < t + e / 2) await arm('http_500');
      else if (r < t + e) await arm('http_500_after_processing');
      else if (r < t + e + o / 3) await arm('reset');
      else if (r < t + e + (2 * o) / 3) await arm('process_then_reset');
      else if (r < t + e + o) await arm('latency', { ms: 2000 });
    };

    const milestones = Array.from({ length: options.killsAtMilestones }, (_, j) =>
      Math.floor((options.stamps * (j + 1)) / (options.killsAtMilestones + 1)),
    );
    const onIssued = async (i: number) => {
      if (milestones.includes(i)) await killWorker(true);
      if (i === Math.floor(options.stamps * 0.4)) {
        options.log('restarting the Temporal dev server');
        await stack.restartTemporal();
        report.chaos.temporalRestarts++;
      }
      if (i === Math.floor(options.stamps * 0.6)) {
        const [row] = await stack.orm.em
          .fork()
          .execute(
            'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
        report.chaos.pgTerminated = (row as { n: number }).n;
        options.log(`pg_terminate_backend: ${report.chaos.pgTerminated} connections of the API and worker`);
      }
    };
    const timer =
      options.killEverySeconds > 0
        ? setInterval(() => void killWorker(false), options.killEverySeconds * 1000)
        : null;

    let next = 0;
    // Each request gets 3 minutes of retries: a platform that keeps answering 5xx or 409 for longer is a finding
    // (reported in `answers`), not a reason for the drill to wait until the test runner gives up.
    const requestDeadline = () => Date.now() + 180_000;
    const heartbeat = setInterval(() => {
      void unsettled(stack.orm).then(
        (left) =>
          options.log(
            `${next} issued, answers ${JSON.stringify(report.answers)}, unsettled ${JSON.stringify(left)}`,
          ),
        () => undefined,
      );
    }, 30_000);
    const lane = async () => {
      while (next < options.stamps && Date.now() < issueDeadline) {
        const i = next++;
        await onIssued(i);
        await maybeArmFault();
        const ppd = i % 5 === 0;
        if (i % 25 === 12) {
          // Twins: two keys, one body and folio, at once (both must be stamped, with two UUIDs).
          const twins = await Promise.all(
            [0, 1].map(() =>
              postUntilFinal(
                stack.base,
                key,
                '/v1/invoices',
                invoiceBody(merchantId, i, false, `TWIN-${i}`),
                requestDeadline(),
              ),
            ),
          );
          report.issued.invoices += 2;
          for (const twin of twins) count('twin invoice', twin.status);
          continue;
        }
        const invoice = await postUntilFinal(
          stack.base,
          key,
          '/v1/invoices',
          invoiceBody(merchantId, i, ppd),
          requestDeadline(),
        );
        report.issued.invoices++;
        count('invoice', invoice.status);
        if (invoice.status !== 201) continue;
        if (ppd) {
          report.issued.payments++;
          const payment = await postUntilFinal(
            stack.base,
            key,
            `/v1/invoices/${invoice.body.id}/payments`,
            { monto: Math.floor(invoice.body.total * 50) / 100, formaPago: '03' },
            requestDeadline(),
          );
          count('payment', payment.status);
        } else if (i % 7 === 0) {
          report.issued.cancellations++;
          const cancel = await postUntilFinal(
            stack.base,
            key,
            `/v1/invoices/${invoice.body.id}/cancel`,
            { motivo: '02' },
            requestDeadline(),
          );
          count('cancel', cancel.status);
        }
        if (report.issued.invoices % 100 === 0) {
          const rate = report.issued.invoices / ((Date.now() - started) / 1000);
          options.log(
            `${report.issued.invoices} invoices issued (${rate.toFixed(2)}/s), ${JSON.stringify(report.answers)}`,
          );
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: options.concurrency }, lane));
    } finally {
      if (timer) clearInterval(timer);
      clearInterval(heartbeat);
    }
    report.seconds.issuing = (Date.now() - started) / 1000;
    await fetch(`${stack.pacUrl}/sandbox/faults`, { method: 'DELETE' });
    // A worker killed by the timer right at the end must be running for settlement.
    await sleep(1500);

    report.seconds.settling = (
      await awaitSettlement(stack.orm, {
        timeoutSeconds: options.settleTimeoutSeconds,
        pollMs: 2000,
        log: options.log,
      })
    ).seconds;
    report.documents = await documentCounts(stack.orm);
    report.violations = await verifySettlement(stack.orm, stack.pacDatabaseUrl, stack.databaseUrl);
    failed = Object.values(report.violations).some((v) => v.length > 0);
    const balance = await getJson(stack.base, key, '/v1/balance');
    options.log(`balance after the drill: ${JSON.stringify(balance.body)}`);
    return report;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A failed drill keeps its databases for inspection.
    await stack.close({ dropDatabases: !failed });
  }
}
