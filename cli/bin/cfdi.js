#!/usr/bin/env node
// Runs the TypeScript sources directly (workspace packages export TS); tsx registers the loader.
require('tsx/cjs');
require('../src/main.ts');
