import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { GO_BIN_DIR, goToolPath, type GoTool } from './go-install';
import { waitForHttp, type Supervisor } from './supervisor';

/**
 * Jaeger v2 (`cmd/jaeger`, an OpenTelemetry Collector distribution with Jaeger's storage and UI). The Go module
 * github.com/jaegertracing/jaeger carries v2 under v1.x tags: v1.76.0 is Jaeger v2.13.
 */
export const JAEGER_VERSION = 'v1.76.0';

const JAEGER: GoTool = {
  title: 'Jaeger',
  name: 'jaeger',
  binary: 'jaeger',
  pkg: 'github.com/jaegertracing/jaeger/cmd/jaeger',
  version: JAEGER_VERSION,
};
const MODULE = 'github.com/jaegertracing/jaeger';

export const JAEGER_CONFIG = path.resolve(__dirname, '../jaeger/config.yaml');

export function jaegerPath(): string {
  return goToolPath(JAEGER);
}

/**
 * Builds Jaeger into the tool cache when missing. `go install pkg@version` refuses it: its go.mod has `replace`
 * directives. So it is built the way its README says, as a tool of a scratch module that repeats those replaces
 * (read from the module's own go.mod, so a version bump needs no edit here); into a scratch folder first, so an
 * interrupted build never leaves a truncated binary in the cache.
 */
export function ensureJaeger(log: (line: string) => void): string {
  const binary = jaegerPath();
  if (fs.existsSync(binary)) return binary;
  const env = {
    ...process.env,
    PATH: `${process.env.PATH ?? ''}${path.delimiter}${GO_BIN_DIR}`,
    CGO_ENABLED: process.env.CGO_ENABLED ?? '0',
  };
  const dir = path.dirname(binary);
  const scratch = `${dir}.building-${process.pid}`;
  const go = (args: string[]) =>
    execFileSync('go', args, { cwd: scratch, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  log(`building Jaeger ${JAEGER_VERSION} into ${dir} (first run only, several minutes)…`);
  fs.mkdirSync(scratch, { recursive: true });
  try {
    go(['mod', 'init', 'cfdi-jaeger-build']);
    const { GoMod } = JSON.parse(go(['mod', 'download', '-json', `${MODULE}@${JAEGER_VERSION}`]));
    const { Replace = [] } = JSON.parse(go(['mod', 'edit', '-json', GoMod]));
    for (const { Old, New } of Replace as Array<{ Old: ModuleRef; New: ModuleRef }>) {
      if (!New.Version)
        throw new Error(`${MODULE} replaces ${Old.Path} with a local folder: cannot build it`);
      go(['mod', 'edit', '-replace', `${ref(Old)}=${ref(New)}`]);
    }
    go(['get', '-tool', `${JAEGER.pkg}@${JAEGER_VERSION}`]);
    go(['build', '-o', path.join(scratch, JAEGER.binary), JAEGER.pkg]);
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(path.join(scratch, JAEGER.binary), binary);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}

interface ModuleRef {
  Path: string;
  Version?: string;
}
const ref = (module: ModuleRef) => (module.Version ? `${module.Path}@${module.Version}` : module.Path);

export interface RunningJaeger {
  /**
   * The Jaeger UI and its query API (`/api/traces/<trace id>`). The Go module carries no built UI, so the page is
   * Jaeger's placeholder unless JAEGER_UI_ASSETS names a folder with a jaeger-ui build.
   */
  uiUrl: string;
  /** OTLP/HTTP: the value of OTEL_EXPORTER_OTLP_ENDPOINT for the platform's processes. */
  otlpEndpoint: string;
}

/** Starts Jaeger (in-memory) under the supervisor on loopback: OTLP/HTTP on `otlpPort`, the UI on `uiPort`. */
export async function startJaeger(
  supervisor: Supervisor,
  options: { uiPort: number; otlpPort: number; log: (line: string) => void },
): Promise<RunningJaeger> {
  const binary = ensureJaeger(options.log);
  supervisor.start('jaeger', binary, ['--config', JAEGER_CONFIG], {
    env: {
      JAEGER_UI_PORT: String(options.uiPort),
      // The query service's gRPC API, unused here but always served: beside the UI.
      JAEGER_QUERY_GRPC_PORT: String(options.uiPort - 1),
      JAEGER_OTLP_HTTP_PORT: String(options.otlpPort),
      JAEGER_UI_ASSETS: process.env.JAEGER_UI_ASSETS ?? '',
    },
  });
  const uiUrl = `http://127.0.0.1:${options.uiPort}`;
  await waitForHttp(uiUrl, 60_000);
  return { uiUrl, otlpEndpoint: `http://127.0.0.1:${options.otlpPort}` };
}
