// Build step of the worker: the Temporal workflow bundle (webpack via bundleWorkflowCode) written once into dist/,
// so a worker started from dist/ loads it instead of bundling the workflows at every start.
/* global require */
const fs = require('node:fs');
const path = require('node:path');
const { bundleWorkflowCode } = require('@temporalio/worker');
const { asciiSource } = require('../../../scripts/ascii-source.cjs');

bundleWorkflowCode({ workflowsPath: require.resolve('@cfdi/workflows') }).then(({ code }) => {
  fs.mkdirSync('dist', { recursive: true });
  // Pure ASCII, or each workflow thread holds the bundle as two-byte characters (scripts/ascii-source.cjs).
  fs.writeFileSync(path.join('dist', 'workflow-bundle.js'), asciiSource(code));
});
