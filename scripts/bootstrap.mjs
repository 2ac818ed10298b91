// Plain Node (no dependencies): installs the workspace when node_modules is missing or older than the lockfile,
// then runs a TypeScript script with tsx. Used by `npm run up` and `npm test` on a fresh clone.
import { spawnSync } from 'node:child_process';
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

export function runTs(script, args = []) {
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), [path.join(root, script), ...args], { cwd: root, stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
