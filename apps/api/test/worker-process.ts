// A worker in its own process, so a test can SIGKILL it mid-activity. Started with `node --import tsx` (one
// process: a tsx wrapper would leave the real worker running after the kill). Clock from TEST_CLOCK_START.
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '@cfdi/config';
import { createWorker, createWorkerDeps } from '@cfdi/worker';

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const config = loadConfig();
  const offset = Number(process.env.TEST_CLOCK_START) - Date.now();
  const deps = await createWorkerDeps(config, () => new Date(Date.now() + offset));
  const workers = await createWorker(config, deps, { workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE });
  process.stdout.write('worker ready\n');
  await workers.run();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
