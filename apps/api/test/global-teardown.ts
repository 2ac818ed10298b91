import fs from 'node:fs';

/** jest globalTeardown: the workflow bundle globalSetup wrote is removed. */
export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_WORKFLOW_BUNDLE_OWNED && process.env.TEST_WORKFLOW_BUNDLE)
    fs.rmSync(process.env.TEST_WORKFLOW_BUNDLE, { force: true });
}
