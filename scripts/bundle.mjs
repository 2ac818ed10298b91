// `node ../../scripts/bundle.mjs src/server.ts [--out name.js] [--bin] [--tree-shake]`, run by an app's `build` script in its folder:
// one CommonJS file in dist/ for Node 20 and 24. Workspace packages (@cfdi/*) are inlined from their TypeScript
// sources, so no library needs a build of its own; everything else stays a require() of node_modules, so native
// modules (Temporal core, sharp) and packages that read their own files keep working.
import fs from 'node:fs';
import process from 'node:process';
import path from 'node:path';
import * as esbuild from 'esbuild';
import asciiSourceModule from './ascii-source.cjs';

const { asciiSource } = asciiSourceModule;

/**
 * Bare imports outside the workspace stay require() calls. With `treeShake`, the workspace's own modules are also
 * declared free of side effects, so esbuild drops every module whose exports the entry does not use (and the
 * node_modules it requires): the CLI then loads only what the command being run needs.
 */
const resolveImports = (treeShake) => ({
  name: 'resolve-imports',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@cfdi/') ? undefined : { path: args.path, external: true }));
    if (!treeShake) return;
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'inner' || args.kind === 'entry-point') return undefined;
      const result = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      return result.errors.length || result.external || result.path.includes('/node_modules/') ? result : { ...result, sideEffects: false };
    });
  },
});

const [entry, ...flags] = process.argv.slice(2);
if (!entry) throw new Error('usage: bundle.mjs <entry.ts> [--out <file.js>] [--bin] [--tree-shake]');
const outName = flags.includes('--out') ? flags[flags.indexOf('--out') + 1] : `${path.basename(entry, '.ts')}.js`;
const outfile = path.join('dist', outName);
const bin = flags.includes('--bin');

await esbuild.build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // MikroORM and error classes rely on constructor names; bundling would otherwise rename clashing classes.
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Node 22+ keeps the compiled code of the bundle and its node_modules on disk between runs (a no-op on Node 20).
  banner: { js: `${bin ? '#!/usr/bin/env node\n' : ''}'use strict';\nrequire('node:module').enableCompileCache?.();` },
  plugins: [resolveImports(flags.includes('--tree-shake'))],
});
// esbuild escapes non-ASCII characters in code but not in the comments it keeps (see ascii-source.cjs).
const source = fs.readFileSync(outfile, 'utf8');
const ascii = asciiSource(source);
if (ascii !== source) fs.writeFileSync(outfile, ascii);
if (bin) fs.chmodSync(outfile, 0o755);
