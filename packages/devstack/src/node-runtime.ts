import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { toolCacheDir } from './go-install';

/** Pinned Node 24 LTS: the production image's runtime, which CI also runs the engine's tests and the smoke test on. */
export const NODE_24_VERSION = '24.21.0';

/**
 * Environment of every Node process in the production image (the Dockerfile's ENV lines; scripts/dockerfile-check.ts
 * holds the two equal; the benches and the Node 24 smoke test run the compiled apps with it).
 * - NODE_OPTIONS: Node 24 sizes V8's young generation from the machine's memory: 64 MB semi-spaces on a 24 GiB host,
 *   so the API idled at 252 MB and peaked at 413–424 MB under bench/stamp, the worker at 527–557 MB. 8 MB semi-spaces
 *   cost no measurable CPU per stamp (more, shorter scavenges) and bring the peaks to 224 / 302 MB.
 * - MALLOC_ARENA_MAX: glibc gives each thread that allocates (V8's compiler and GC helpers, libuv's pool) its own
 *   arena, and freed memory stays in it: the API held ~30 MB in five such arenas. At 2 the API peaked at 199–204 MB
 *   against 207–220 in alternating runs, the worker at 355–375 against 376–422, CPU per stamp unchanged
 *   (bench/README.md).
 */
export const PRODUCTION_ENV = { NODE_OPTIONS: '--max-semi-space-size=8', MALLOC_ARENA_MAX: '2' } as const;

/** `<cache>/node-<version>/bin/node`. */
export function node24Path(): string {
  return path.join(toolCacheDir(), `node-${NODE_24_VERSION}`, 'bin', 'node');
}

/**
 * The Node 24 binary, installed into the tool cache when missing from the npm registry's `node-<platform>-<arch>`
 * package (the official build, published there by the Node.js project), so CI needs no other download site. It is
 * unpacked into a scratch folder and renamed into place: an interrupted install is never taken for a finished one.
 */
export function ensureNode24(log: (line: string) => void): string {
  const binary = node24Path();
  if (fs.existsSync(binary)) return binary;
  const dir = path.dirname(path.dirname(binary));
  const scratch = `${dir}.installing-${process.pid}`;
  const pkg = `node-${process.platform}-${process.arch}@${NODE_24_VERSION}`;
  log(`installing Node ${NODE_24_VERSION} (${pkg} from the npm registry) into ${dir} (first run only)…`);
  fs.mkdirSync(scratch, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', pkg, '--pack-destination', scratch, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop()!;
    execFileSync('tar', ['-xzf', path.join(scratch, tarball), '-C', scratch]);
    const version = execFileSync(path.join(scratch, 'package', 'bin', 'node'), ['--version'], {
      encoding: 'utf8',
    }).trim();
    if (version !== `v${NODE_24_VERSION}`) throw new Error(`${pkg} runs as ${version}`);
    fs.renameSync(path.join(scratch, 'package'), dir);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}
