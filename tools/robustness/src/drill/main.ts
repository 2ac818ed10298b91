// The chaos drill from the command line (bench/README.md "Chaos drill"). Every setting is an environment variable:
//   DRILL_STAMPS=10000 DRILL_CONCURRENCY=8 DRILL_KILL_EVERY_SECONDS=30 DRILL_TIMEOUT_RATE=0.05 DRILL_ERROR_RATE=0.05
//   DRILL_OTHER_FAULT_RATE=0.02 DRILL_KILLS_AT_MILESTONES=0 DRILL_MAX_ISSUE_SECONDS=86400 DRILL_SETTLE_TIMEOUT_SECONDS=1800
// Exit code 1 when an invariant is violated (the report names the offending ids).
import { runDrill } from './drill';

const num = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const log = (line: string) => process.stderr.write(`[drill ${new Date().toISOString()}] ${line}\n`);

async function main(): Promise<number> {
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
    log,
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.values(report.violations).some((v) => v.length) ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
