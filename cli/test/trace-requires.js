// Preload for startup.test.ts: records every bare package that code outside node_modules requires, printed at exit.
/* global require, process */
const Module = require('node:module');
const original = Module._load;
const seen = new Set();
Module._load = function load(request, parent, ...rest) {
  if (!/^(\.|\/|node:)/.test(request) && parent && !parent.filename.includes('/node_modules/'))
    seen.add(request);
  return original.call(this, request, parent, ...rest);
};
process.on('exit', () => process.stderr.write(`LOADED ${[...seen].join(',')}\n`));
