import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Pinned: v1.5.1 is the newest Temporal CLI that installs with `go install`. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

export function temporalCliPath(): string {
  const cacheRoot = process.env.CFDI_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cfdi-platform');
  return path.join(cacheRoot, `temporal-${TEMPORAL_CLI_VERSION}`, 'temporal');
}

/**
 * Builds the Temporal CLI into a cache outside the repository when it is missing (takes a few minutes the
 * first time; needs Go and the Go module proxy).
 */
export function ensureTemporalCli(log: (line: string) => void): string {
  const binary = temporalCliPath();
  if (fs.existsSync(binary)) return binary;
  try {
    execFileSync('go', ['version'], { stdio: 'pipe' });
  } catch {
    throw new Error('Go is needed to build the Temporal CLI (https://go.dev/doc/install), or set TEMPORAL_ADDRESS to a running Temporal server.');
  }
  log(`building the Temporal CLI ${TEMPORAL_CLI_VERSION} into ${path.dirname(binary)} (first run only, a few minutes)…`);
  const result = spawnSync('go', ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    env: { ...process.env, GOBIN: path.dirname(binary), CGO_ENABLED: process.env.CGO_ENABLED ?? '0' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0 || !fs.existsSync(binary)) throw new Error(`go install of the Temporal CLI failed (exit ${result.status})`);
  return binary;
}
