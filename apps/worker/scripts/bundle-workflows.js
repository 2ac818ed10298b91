// Build step of the worker: the Temporal workflow bundles (webpack via bundleWorkflowCode) written once into dist/,
// so a worker started from dist/ loads one instead of bundling the workflows at every start: workflow-bundle.js, and
// workflow-bundle-traced.js with OpenTelemetry's workflow interceptors, run when the worker traces (OTEL_* set).
/* global require */
const fs = require('node:fs');
const path = require('node:path');
const { bundleWorkflowCode } = require('@temporalio/worker');
const { asciiSource } = require('../../../scripts/ascii-source.cjs');

const workflowsPath = require.resolve('@cfdi/workflows');
const tracingModule = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

async function main() {
  fs.mkdirSync('dist', { recursive: true });
  for (const [name, workflowInterceptorModules] of [
    ['workflow-bundle.js', []],
    ['workflow-bundle-traced.js', [tracingModule]],
  ]) {
    const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules });
    // Pure ASCII, or each workflow thread holds the bundle as two-byte characters (scripts/ascii-source.cjs).
    fs.writeFileSync(path.join('dist', name), asciiSource(code));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
