// The chaos drill from the command line (docs/operations.md "Robustness: drill and fuzzer"; figures in bench/README.md). Every setting is an environment variable:
//   DRILL_STAMPS=10000 DRILL_CONCURRENCY=8 DRILL_KILL_EVERY_SECONDS=30 DRILL_TIMEOUT_RATE=0.05 DRILL_ERROR_RATE=0.05
//   DRILL_OTHER_FAULT_RATE=0.02 DRILL_KILLS_AT_MILESTONES=0 DRILL_MAX_ISSUE_SECONDS=86400 DRILL_SETTLE_TIMEOUT_SECONDS=1800
// Exit code 1 when an invariant is violated (the report names the offending ids).
import { envNumber as num, runCommand, stderrLog } from '../command-line';
import { runDrill } from './drill';

runCommand(async () => {
  const report = await runDrill({
    stamps: num('DRILL_STAMPS', 10_000),
    concurrency: num('DRILL_CONCURRENCY', 8),
    killEverySeconds: num('DRILL_KILL_EVERY_SECONDS', 30),
    killsAtMilestones: num('DRILL_KILLS_AT_MILESTONES', 0),
    timeoutRate: num('DRILL_TIMEOUT_RATE', 0.05),
    errorRate: num('DRILL_ERROR_RATE', 0.05),
    otherFaultRate: num('DRILL_OTHER_FAULT_RATE', 0.02),
    maxIssueSeconds: num('DRILL_MAX_ISSUE_SECONDS', 86_400),
    settleTimeoutSeconds: num('DRILL_SETTLE_TIMEOUT_SECONDS', 1800),
    log: stderrLog('drill'),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.values(report.violations).some((v) => v.length) ? 1 : 0;
});
