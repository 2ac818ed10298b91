// Build step of the worker: the Temporal workflow bundle (webpack via bundleWorkflowCode) written once into dist/,
// so a worker started from dist/ loads it instead of bundling the workflows at every start.
/* global require */
const fs = require('node:fs');
const path = require('node:path');
const { bundleWorkflowCode } = require('@temporalio/worker');

bundleWorkflowCode({ workflowsPath: require.resolve('@cfdi/workflows') }).then(({ code }) => {
  fs.mkdirSync('dist', { recursive: true });
  // As scripts/bundle.mjs does: one non-ASCII character in a comment makes every workflow thread hold the whole
  // bundle as two-byte characters; the escape means the same character anywhere else.
  const ascii = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  fs.writeFileSync(path.join('dist', 'workflow-bundle.js'), ascii);
});
