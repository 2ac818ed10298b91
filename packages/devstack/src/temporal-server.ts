import type { Supervisor } from './supervisor';
import { ensureTemporalCli } from './temporal-cli';
import { waitForPort } from './supervisor';

/**
 * Tuning for the embedded single-machine server (measured with bench/stamp):
 * - one task-queue partition, since one worker polls each queue and four partitions only forward tasks between
 *   themselves, and no search-attribute cache refresh on every workflow start (the CLI's default, meant for users
 *   adding attributes while testing; this platform defines none at run time): ~15 % less server CPU per stamp;
 * - the transfer queue read up to 1,000 times a second instead of 20. The limit is per history shard and the dev
 *   server has a single shard, so past 20 workflow starts a second every new workflow task waited for the limiter
 *   before reaching its worker: an update-with-start of an empty workflow took 50 ms p50 instead of 17.
 */
const DYNAMIC_CONFIG = [
  'matching.numTaskqueueReadPartitions=1',
  'matching.numTaskqueueWritePartitions=1',
  'system.forceSearchAttributesCacheRefreshOnRead=false',
  'history.transferProcessorMaxPollRPS=1000',
];

/**
 * Starts `temporal server start-dev` under the supervisor. With `dbFile` the history survives restarts
 * (SQLite); without it the server keeps everything in memory (tests).
 */
export async function startTemporalDevServer(
  supervisor: Supervisor,
  options: {
    port: number;
    uiPort?: number;
    dbFile?: string;
    logLevel?: 'warn' | 'error';
    log: (line: string) => void;
  },
): Promise<string> {
  const binary = ensureTemporalCli(options.log);
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(options.port),
    '--log-level',
    options.logLevel ?? 'warn',
    '--namespace',
    'default',
  ];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort));
  else args.push('--headless');
  if (options.dbFile) args.push('--db-filename', options.dbFile);
  for (const value of DYNAMIC_CONFIG) args.push('--dynamic-config-value', value);
  supervisor.start('temporal', binary, args);
  await waitForPort('127.0.0.1', options.port, 60_000);
  return `127.0.0.1:${options.port}`;
}
