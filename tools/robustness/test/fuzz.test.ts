import { runFuzz } from '../src/fuzz/fuzz';

// The short fuzzing run of issue #23 (the long one is `FUZZ_RUNS=10000 npm run fuzz -w @cfdi/robustness`).
it('answers the permanent cases and a few hundred generated requests without a 5xx, a non-problem error, a slow answer or a blocked event loop', async () => {
  const report = await runFuzz({ runs: Number(process.env.TEST_FUZZ_RUNS ?? 300), log: (line) => process.stderr.write(`[fuzz] ${line}\n`) });
  process.stderr.write(`[fuzz] ${JSON.stringify({ requests: report.requests, statuses: report.statuses, eventLoop: report.eventLoop, slowestMs: report.slowestMs })}\n`);
  expect(report.failure).toBeNull();
  expect(report.requests).toBeGreaterThan(300);
}, 15 * 60_000);
