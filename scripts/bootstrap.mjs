// Plain Node (no dependencies): runs `npm run up` and `npm test` on Node 24 whatever the machine's Node, installs
// the workspace when node_modules is missing or older than the lockfile, then runs a TypeScript script.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The same pin and cache as packages/devstack/src/node-runtime.ts (ensureNode24), which this file cannot import:
// it runs before the workspace is installed, possibly on an older Node.
const NODE_24_VERSION = '24.21.0';
const cacheDir = () =>
  process.env.CFDI_CACHE_DIR ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cfdi-platform');

/**
 * The Node 24 binary: this one when it is Node 24, else the pinned one from the tool cache, installed there on the
 * first run from the npm registry's `node-<platform>-<arch>` package (the official build), unpacked into a scratch
 * folder and renamed into place so that an interrupted install is never taken for a finished one.
 */
function node24() {
  if (process.versions.node.split('.')[0] === '24') return process.execPath;
  const dir = path.join(cacheDir(), `node-${NODE_24_VERSION}`);
  const binary = path.join(dir, 'bin', 'node');
  if (fs.existsSync(binary)) return binary;
  const pkg = `node-${process.platform}-${process.arch}@${NODE_24_VERSION}`;
  console.log(
    `Node ${process.versions.node} is not supported: installing Node ${NODE_24_VERSION} (${pkg}) into ${dir}…`,
  );
  const scratch = `${dir}.installing-${process.pid}`;
  fs.mkdirSync(scratch, { recursive: true });
  try {
    const tarball = execFileSync('npm', ['pack', pkg, '--pack-destination', scratch, '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop();
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

/**
 * The environment of everything below: Node 24's folder first on PATH, so that `npm` (whose script starts with
 * `#!/usr/bin/env node`), turbo's tasks, jest and every `node` a script starts run on Node 24 too.
 */
function node24Env(binary) {
  return { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}` };
}

function ensureInstalled(env) {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs) {
    // `npm install`, not `npm ci`: the lockfile cannot list other platforms' optional binaries (swc, turbo)
    // when the registry mirror does not serve them, and `npm ci` refuses such a lockfile. install still honours it.
    console.log('installing dependencies (npm install)…');
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: root,
      stdio: 'inherit',
      env,
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

/**
 * Runs the TypeScript script on Node 24 (`node --import tsx`: one process, no tsx wrapper, which would SIGKILL the
 * script when it does not acknowledge a relayed signal within 30 ms) and exits with its code. Ctrl-C reaches the
 * whole terminal group anyway; a signal sent to this process alone (`kill`, `timeout`, a process manager) is passed
 * on, so the script stops what it started; if this process is killed outright, the script sees itself re-parented
 * and stops too (devstack's stopOnRequest).
 */
export function runTs(script, args = []) {
  const binary = node24();
  const env = node24Env(binary);
  ensureInstalled(env);
  const child = spawn(binary, ['--import', 'tsx', path.join(root, script), ...args], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}
