// The replica run from the command line (docs/operations.md "Production topology", bench/README.md "Replicas"):
//   REPLICAS_INVOICES=120 REPLICAS_CONCURRENCY=8 REPLICAS_RACES=10 REPLICAS_SETTLE_TIMEOUT_SECONDS=300
// Prints the report as JSON; exit code 1 when a document was stamped twice, lost or left reserved.
import { envNumber as num, runCommand, stderrLog } from '../command-line';
import { runReplicas } from './replicas';

runCommand(async () => {
  const report = await runReplicas({
    invoices: num('REPLICAS_INVOICES', 120),
    concurrency: num('REPLICAS_CONCURRENCY', 8),
    idempotencyRaces: num('REPLICAS_RACES', 10),
    settleTimeoutSeconds: num('REPLICAS_SETTLE_TIMEOUT_SECONDS', 300),
    log: stderrLog('replicas'),
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.values(report.violations).some((v) => v.length) ? 1 : 0;
});
