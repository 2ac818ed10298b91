import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Where the official Go tarball installs; added to PATH for shells that lack it (CI's, a fresh login). */
export const GO_BIN_DIR = '/usr/local/go/bin';

export interface GoTool {
  /** Human name for messages, e.g. "the Temporal CLI". */
  title: string;
  /** Cache folder and binary name: `<cache>/<name>-<version>/<binary>`. */
  name: string;
  binary: string;
  /** Go package path, installed with `go install <pkg>@<version>`. */
  pkg: string;
  version: string;
}

/** `$CFDI_CACHE_DIR` or `~/.cache/cfdi-platform`: outside the repository, shared by every clone on the machine. */
export function toolCacheDir(): string {
  return (
    process.env.CFDI_CACHE_DIR ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cfdi-platform')
  );
}

export function goToolPath(tool: GoTool): string {
  return path.join(toolCacheDir(), `${tool.name}-${tool.version}`, tool.binary);
}

/**
 * The tool's binary, built with `go install` into the cache when missing (needs Go and the Go module proxy).
 * It is built into a scratch folder and renamed into place, so an interrupted build never leaves a truncated
 * binary that later runs would take for a finished one.
 */
export function ensureGoTool(tool: GoTool, log: (line: string) => void, missingGoHint: string): string {
  const binary = goToolPath(tool);
  if (fs.existsSync(binary)) return binary;
  const env = {
    ...process.env,
    PATH: `${process.env.PATH ?? ''}${path.delimiter}${GO_BIN_DIR}`,
    CGO_ENABLED: process.env.CGO_ENABLED ?? '0',
  };
  try {
    execFileSync('go', ['version'], { stdio: 'pipe', env });
  } catch {
    throw new Error(`Go is needed to build ${tool.title} (https://go.dev/doc/install)${missingGoHint}.`);
  }
  const dir = path.dirname(binary);
  const scratch = `${dir}.building-${process.pid}`;
  log(`building ${tool.title} ${tool.version} into ${dir} (first run only, a few minutes)…`);
  try {
    const result = spawnSync('go', ['install', `${tool.pkg}@${tool.version}`], {
      env: { ...env, GOBIN: scratch },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (result.status !== 0)
      throw new Error(`go install of ${tool.title} failed (exit ${result.status ?? result.signal})`);
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(scratch, tool.binary), binary);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}
