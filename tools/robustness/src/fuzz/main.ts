// The fuzzer from the command line (docs/operations.md "Robustness: drill and fuzzer"): FUZZ_RUNS=10000 [FUZZ_SEED=n] npm run fuzz -w @cfdi/robustness
// Exit code 1 on a failure, after printing the minimal failing request.
import { runCommand } from '../command-line';
import { runFuzz } from './fuzz';

const log = (line: string) => process.stderr.write(`[fuzz] ${line}\n`);

runCommand(async () => {
  const started = Date.now();
  const report = await runFuzz({
    runs: Number(process.env.FUZZ_RUNS ?? 10_000),
    ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
    log,
  });
  process.stdout.write(`${JSON.stringify({ ...report, seconds: (Date.now() - started) / 1000 }, null, 2)}\n`);
  if (report.failure)
    process.stdout.write(
      `\nMINIMAL FAILING REQUEST (${report.failure.reason}):\n${report.failure.request}\n`,
    );
  return report.failure ? 1 : 0;
});
