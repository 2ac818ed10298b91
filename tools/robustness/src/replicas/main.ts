// The replica run from the command line (README "Production topology", bench/README.md "Replicas"):
//   REPLICAS_INVOICES=120 REPLICAS_CONCURRENCY=8 REPLICAS_RACES=10 REPLICAS_SETTLE_TIMEOUT_SECONDS=300
// Prints the report as JSON; exit code 1 when a document was stamped twice, lost or left reserved.
import { runReplicas } from './replicas';

const num = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const log = (line: string) => process.stderr.write(`[replicas ${new Date().toISOString()}] ${line}\n`);

async function main(): Promise<number> {
  const report = await runReplicas({
    invoices: num('REPLICAS_INVOICES', 120),
    concurrency: num('REPLICAS_CONCURRENCY', 8),
    idempotencyRaces: num('REPLICAS_RACES', 10),
    settleTimeoutSeconds: num('REPLICAS_SETTLE_TIMEOUT_SECONDS', 300),
    log,
  });
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.values(report.violations).some((v) => v.length) ? 1 : 0;
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
