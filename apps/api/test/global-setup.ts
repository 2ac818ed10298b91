import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import testDatabaseSetup from '@cfdi/testkit/src/global-setup';

/**
 * jest globalSetup: the test database migrated, and the workflows bundled once into a file every worker of the run
 * loads (TEST_WORKFLOW_BUNDLE, inherited by the test processes): bundling costs seconds of CPU, and a suite that
 * paid it in its `beforeAll` on a loaded machine ran out of the hook's time.
 */
export default async function globalSetup(): Promise<void> {
  await testDatabaseSetup();
  if (process.env.TEST_WORKFLOW_BUNDLE) return;
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('@cfdi/workflows'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error },
  });
  const file = path.join(os.tmpdir(), `cfdi-test-workflows-${process.pid}.js`);
  fs.writeFileSync(file, code);
  process.env.TEST_WORKFLOW_BUNDLE = file;
  process.env.TEST_WORKFLOW_BUNDLE_OWNED = '1';
}
