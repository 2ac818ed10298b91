import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ensureGoTool, GO_BIN_DIR, goToolPath, type GoTool } from './go-install';
import type { Supervisor } from './supervisor';
import { freePort, freePortBelow, waitForPort } from './supervisor';

/**
 * The Temporal server as production runs it, on PostgreSQL. Same release as docker-compose.yml's
 * `temporalio/server` image (a test keeps the two in step); the server and its schema tool are built from the
 * `go.temporal.io/server` module, whose source also carries the versioned schemas the tool applies.
 */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';

const SERVER_MODULE = 'go.temporal.io/server';
const TEMPORAL_SERVER: GoTool = {
  title: 'the Temporal server',
  name: 'temporal-server',
  binary: 'server',
  pkg: `${SERVER_MODULE}/cmd/server`,
  version: TEMPORAL_SERVER_VERSION,
};
const TEMPORAL_SQL_TOOL: GoTool = {
  title: 'temporal-sql-tool',
  name: 'temporal-sql-tool',
  binary: 'sql',
  pkg: `${SERVER_MODULE}/cmd/tools/sql`,
  version: TEMPORAL_SERVER_VERSION,
};

/** The committed configuration (`<dir>/config/postgres.yaml`, a template the server renders from its environment). */
export const TEMPORAL_CONFIG_DIR = path.resolve(__dirname, '../temporal');

export function temporalServerPath(): string {
  return goToolPath(TEMPORAL_SERVER);
}

export function temporalSqlToolPath(): string {
  return goToolPath(TEMPORAL_SQL_TOOL);
}

export interface TemporalPostgresOptions {
  /** PostgreSQL that holds Temporal's two databases (trust or password authentication). */
  pg: { host: string; port: number; user: string; password?: string };
  database: string;
  visibilityDatabase: string;
  /** `ports.frontend` is what workers and clients dial. */
  ports: TemporalPorts;
  log: (line: string) => void;
  /** The server logs every peer it cannot reach yet while starting and stopping at `error`, with stack traces. */
  logLevel?: 'info' | 'warn' | 'error' | 'fatal';
}

/** Every port one server process listens on: four services, each with gRPC and membership, plus the frontend's HTTP. */
export interface TemporalPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

/**
 * The server's ports: five gRPC/HTTP ports from `grpcFrom` (frontend, frontend HTTP, history, matching, worker) and
 * four membership ports from `membershipFrom`. Temporal stores a membership port in a PostgreSQL `smallint`
 * (cluster_membership.rpc_port), so those must stay below 32768: the server dies at start with
 * "value … is out of range for type smallint" otherwise.
 */
export function temporalPorts(grpcFrom: number, membershipFrom: number): TemporalPorts {
  if (membershipFrom + 3 > 32_767)
    throw new Error(
      `Temporal membership ports must be below 32768 (a smallint in its schema), not ${membershipFrom}`,
    );
  return {
    frontend: grpcFrom,
    frontendHttp: grpcFrom + 1,
    history: grpcFrom + 2,
    matching: grpcFrom + 3,
    worker: grpcFrom + 4,
    frontendMembership: membershipFrom,
    historyMembership: membershipFrom + 1,
    matchingMembership: membershipFrom + 2,
    workerMembership: membershipFrom + 3,
  };
}

/** Free ports for a throwaway server (benches): gRPC ports anywhere, membership ports below 32768. */
export async function freeTemporalPorts(): Promise<TemporalPorts> {
  const [frontend, frontendHttp, history, matching, worker] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const membership = [
    await freePortBelow(32_768),
    await freePortBelow(32_768),
    await freePortBelow(32_768),
    await freePortBelow(32_768),
  ];
  return {
    frontend,
    frontendHttp,
    history,
    matching,
    worker,
    frontendMembership: membership[0]!,
    historyMembership: membership[1]!,
    matchingMembership: membership[2]!,
    workerMembership: membership[3]!,
  };
}

/** Builds the server and the schema tool into the tool cache when missing (several minutes the first time). */
export function ensureTemporalServer(log: (line: string) => void): { server: string; sqlTool: string } {
  const hint = ', or set TEMPORAL_ADDRESS to a running Temporal server';
  return {
    server: ensureGoTool(TEMPORAL_SERVER, log, hint),
    sqlTool: ensureGoTool(TEMPORAL_SQL_TOOL, log, hint),
  };
}

/**
 * The server module's source in the Go module cache (downloaded when missing): its `schema/` folder holds the
 * versioned PostgreSQL schemas that temporal-sql-tool applies.
 */
export function temporalSchemaDir(): string {
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}${path.delimiter}${GO_BIN_DIR}` };
  const out = execFileSync(
    'go',
    ['mod', 'download', '-json', `${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`],
    { env, encoding: 'utf8' },
  );
  return path.join((JSON.parse(out) as { Dir: string }).Dir, 'schema', 'postgresql', 'v12');
}

/**
 * Creates Temporal's two databases when missing and brings their schemas to this release's newest version with
 * temporal-sql-tool, the documented procedure (`create-database`, `setup-schema -v 0.0`, `update-schema -d
 * …/versioned`). Every step is idempotent: a database at the newest version is left as it is.
 */
export function migrateTemporalDatabases(
  sqlTool: string,
  options: Pick<TemporalPostgresOptions, 'pg' | 'database' | 'visibilityDatabase' | 'log'>,
): void {
  const schemaDir = temporalSchemaDir();
  const { pg } = options;
  const env = { ...process.env, ...(pg.password ? { SQL_PASSWORD: pg.password } : {}) };
  for (const [database, schema] of [
    [options.database, 'temporal'],
    [options.visibilityDatabase, 'visibility'],
  ] as const) {
    const tool = (...args: string[]) =>
      execFileSync(
        sqlTool,
        [
          '--plugin',
          'postgres12',
          '--ep',
          pg.host,
          '--port',
          String(pg.port),
          '--user',
          pg.user,
          '--db',
          database,
          ...args,
        ],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    tool('create-database');
    tool('setup-schema', '-v', '0.0');
    tool('update-schema', '-d', path.join(schemaDir, schema, 'versioned'));
    options.log(`Temporal database ${database} (${schema}) at this release's schema`);
  }
}

/**
 * The server process's environment: the variables config/postgres.yaml reads, which are the official image's
 * (config/docker.yaml of `temporalio/server`), so the compose file configures its server the same way.
 */
export function temporalServerEnv(
  options: Pick<TemporalPostgresOptions, 'pg' | 'database' | 'visibilityDatabase' | 'ports' | 'logLevel'>,
): Record<string, string> {
  const { pg, ports } = options;
  return {
    LOG_LEVEL: options.logLevel ?? 'warn',
    POSTGRES_SEEDS: pg.host,
    DB_PORT: String(pg.port),
    POSTGRES_USER: pg.user,
    POSTGRES_PWD: pg.password ?? '',
    DBNAME: options.database,
    VISIBILITY_DBNAME: options.visibilityDatabase,
    // A share of one machine's PostgreSQL (100 connections by default, beside the platform's pools): 10 + 4.
    SQL_MAX_CONNS: '10',
    SQL_MAX_IDLE_CONNS: '10',
    SQL_VIS_MAX_CONNS: '4',
    SQL_VIS_MAX_IDLE_CONNS: '4',
    BIND_ON_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(ports.frontend),
    FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    HISTORY_GRPC_PORT: String(ports.history),
    HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    MATCHING_GRPC_PORT: String(ports.matching),
    MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    WORKER_GRPC_PORT: String(ports.worker),
    WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    DYNAMIC_CONFIG_FILE_PATH: path.join(TEMPORAL_CONFIG_DIR, 'config', 'dynamicconfig.yaml'),
  };
}

/**
 * Builds (once), migrates and starts the Temporal server on PostgreSQL under the supervisor, from the committed
 * config file; resolves with the frontend's address once it accepts connections. The namespace is not created
 * here: `ensureNamespace` registers it with its retention (as for the dev server).
 */
export async function startTemporalPostgresServer(
  supervisor: Supervisor,
  options: TemporalPostgresOptions,
): Promise<string> {
  const { server, sqlTool } = ensureTemporalServer(options.log);
  migrateTemporalDatabases(sqlTool, options);
  supervisor.start(
    'temporal',
    server,
    ['--root', TEMPORAL_CONFIG_DIR, '--config', 'config', '--env', 'postgres', '--allow-no-auth', 'start'],
    {
      env: temporalServerEnv(options),
    },
  );
  // The frontend listens before the history shards are owned; the namespace registration that follows retries.
  await waitForPort('127.0.0.1', options.ports.frontend, 120_000);
  return `127.0.0.1:${options.ports.frontend}`;
}
