// Plain Node (no dependencies): installs the workspace when node_modules is missing or older than the lockfile,
// then runs a TypeScript script with tsx. Used by `npm run up` and `npm test` on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!fs.existsSync(marker) || fs.statSync(marker).mtimeMs < fs.statSync(lock).mtimeMs) {
    // `npm install`, not `npm ci`: the lockfile cannot list other platforms' optional binaries (swc, turbo)
    // when the registry mirror does not serve them, and `npm ci` refuses such a lockfile. install still honours it.
    console.log('installing dependencies (npm install)…');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
}

/**
 * Runs the script and exits with its code. Ctrl-C reaches the whole terminal group anyway; a signal sent to this
 * process alone (`kill`, `timeout`, a process manager) is passed on, so the script stops what it started instead of
 * being orphaned with it.
 */
export function runTs(script, args = []) {
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, script), ...args], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
}
