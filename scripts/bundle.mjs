// `node ../../scripts/bundle.mjs src/server.ts [--out name.js] [--bin] [--tree-shake] [--inline-deps --external a,b/*]
// [--link ./module=./file.js]`, run by an app's `build` script in its folder: one CommonJS file in dist/ for Node 24.
// Workspace packages (@cfdi/*) are inlined from their TypeScript sources, so no library needs a build of its own;
// everything else stays a require() of node_modules, so native modules (Temporal core, sharp) and packages that read
// their own files keep working.
// --inline-deps inlines node_modules too, except the --external packages (a trailing /* for a whole scope): the
// CLI's commands load one file instead of ~800 modules (MikroORM, knex, lodash), which halves their start-up.
// --link ./module=./file.js leaves that relative import as a require() of another bundle in dist/.
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
const resolveImports = ({ treeShake, inlineDeps, external, links }) => ({
  name: 'resolve-imports',
  setup(build) {
    const isExternal = (specifier) => {
      if (specifier.startsWith('@cfdi/')) return false;
      if (!inlineDeps) return true;
      const name = specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
      return external.some((pattern) =>
        pattern.endsWith('/*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern,
      );
    };
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' || !isExternal(args.path) ? undefined : { path: args.path, external: true },
    );
    for (const [specifier, file] of links)
      build.onResolve(
        { filter: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) },
        () => ({
          path: file,
          external: true,
        }),
      );
    if (!treeShake) return;
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'inner' || args.kind === 'entry-point') return undefined;
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: 'inner',
      });
      // An unresolvable require inside an inlined package (an optional peer in a try/catch) is esbuild's to report.
      if (result.errors.length && inlineDeps) return undefined;
      return result.errors.length || result.external || result.path.includes('/node_modules/')
        ? result
        : { ...result, sideEffects: false };
    });
  },
});

const [entry, ...flags] = process.argv.slice(2);
if (!entry)
  throw new Error(
    'usage: bundle.mjs <entry.ts> [--out <file.js>] [--bin] [--tree-shake] [--inline-deps --external a,b] [--link ./m=./f.js]',
  );
const valuesOf = (flag) =>
  flags.flatMap((value, i) => (flags[i - 1] === flag ? value.split(',').filter(Boolean) : []));
const outName = flags.includes('--out')
  ? flags[flags.indexOf('--out') + 1]
  : `${path.basename(entry, '.ts')}.js`;
const outfile = path.join('dist', outName);
const bin = flags.includes('--bin');

await esbuild.build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  // MikroORM and error classes rely on constructor names; bundling would otherwise rename clashing classes.
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Node keeps the compiled code of what this bundle requires (node_modules, other bundles) on disk between runs.
  banner: {
    js: `${bin ? '#!/usr/bin/env node\n' : ''}'use strict';\nrequire('node:module').enableCompileCache?.();`,
  },
  plugins: [
    resolveImports({
      treeShake: flags.includes('--tree-shake'),
      inlineDeps: flags.includes('--inline-deps'),
      external: valuesOf('--external'),
      links: valuesOf('--link').map((link) => link.split('=')),
    }),
  ],
});
// esbuild escapes non-ASCII characters in code but not in the comments it keeps (see ascii-source.cjs).
const source = fs.readFileSync(outfile, 'utf8');
const ascii = asciiSource(source);
if (ascii !== source) fs.writeFileSync(outfile, ascii);
if (bin) fs.chmodSync(outfile, 0o755);
