import { runReplicas } from '../src/replicas/replicas';

// Issue #20: 2 APIs and 3 workers on the Temporal server on PostgreSQL; every document ends exactly once. About a
// minute on the shared 2-core VM (plus the server's one-time build); part of `npm test`. Fixed ports and database
// names (`REPLICA_PORTS`, `topo_*`): one run at a time per machine.
it(
  '2 APIs and 3 workers on Temporal-on-PostgreSQL: a worker SIGKILLed and an API restarted mid-run, every document ends exactly once',
  async () => {
    const report = await runReplicas({
      invoices: 120,
      concurrency: 8,
      idempotencyRaces: 10,
      settleTimeoutSeconds: 300,
      log: (line) => process.stderr.write(`[replicas] ${line}\n`),
    });
    process.stderr.write(
      `[replicas] ${JSON.stringify({ issued: report.issued, answers: report.answers, documents: report.documents, seconds: report.seconds, rateLimit: report.rateLimit })}\n`,
    );
    expect(report.violations).toEqual(
      Object.fromEntries(Object.keys(report.violations).map((check) => [check, []])),
    );
    expect(Object.keys(report.violations)).toEqual(
      expect.arrayContaining([
        'stuck',
        'duplicateUuids',
        'pacStampsWithoutDocument',
        'consumesPerDocument',
        'refundsPerDocument',
        'balanceNotSumOfDeltas',
        'ledgerVerify',
        'unanswered',
        'unnamedDocumentsInForce',
        'idempotencyRaces',
        'rateLimitAcrossReplicas',
      ]),
    );
    expect(report.chaos.workerKilled).not.toBe('');
    expect(report.chaos.apiRestarted).not.toBe('');
    expect(report.issued.invoices).toBe(120);
    expect(report.issued.payments + report.issued.cancellations).toBeGreaterThan(0);
  },
  20 * 60_000,
);
