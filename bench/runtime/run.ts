// bench/runtime: start-up time and memory of the compiled services (dist/) against the sources run by tsx, and
// the CLI's start-up, on this Node and on the pinned Node 24. Run `npm run build` first.
// Usage: npx tsx bench/runtime/run.ts [runs=5]   (DATABASE_URL/REDIS_URL as for the tests; a Temporal dev server is
// started unless TEMPORAL_ADDRESS is set; the account for `balance show` is created in DATABASE_URL's database)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNode24, freePort, startTemporalDevServer, Supervisor } from '@cfdi/devstack';
import { applyTestEnv } from '@cfdi/testkit';

const root = path.resolve(__dirname, '../..');
const runs = Number(process.argv[2] ?? 5);
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** Wall time of a command that exits, median and min of `runs` runs. */
function timeCommand(node: string, args: string[]): string {
  const times = Array.from({ length: runs }, () => {
    const start = process.hrtime.bigint();
    execFileSync(node, args, { cwd: root, stdio: 'ignore' });
    return ms(start);
  });
  return `median ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms`;
}

/** Time until the process prints `ready` (a line matching it), then its RSS after 5 s idle. */
async function coldStart(
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ ms: number; rssMb: number }> {
  const start = process.hrtime.bigint();
  const child = spawn(node, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const elapsed = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${args.join(' ')} not ready in 180 s`)), 180_000);
      const onData = (chunk: Buffer) => {
        if (ready.test(chunk.toString())) {
          clearTimeout(timer);
          resolve(ms(start));
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
    });
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rss =
      Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    return { ms: elapsed, rssMb: rss };
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  applyTestEnv();
  const supervisor = new Supervisor(() => undefined);
  try {
    process.env.TEMPORAL_ADDRESS ??= await startTemporalDevServer(supervisor, {
      port: await freePort(),
      logLevel: 'error',
      log,
    });
    const nodes: [string, string][] = [
      [`Node ${process.versions.node}`, process.execPath],
      [`Node 24`, ensureNode24(log)],
    ];
    const created = JSON.parse(
      execFileSync(
        process.execPath,
        ['cli/dist/cfdi.js', 'accounts', 'create', '--name', 'bench', '--json'],
        { cwd: root, encoding: 'utf8' },
      ),
    );
    for (const [name, node] of nodes) {
      log(`${name}: cfdi --help (dist) ${timeCommand(node, ['cli/dist/cfdi.js', '--help'])}`);
      log(
        `${name}: cfdi balance show (dist) ${timeCommand(node, ['cli/dist/cfdi.js', 'balance', 'show', created.accountId])}`,
      );
    }
    log(
      `Node ${process.versions.node}: cfdi --help (sources, tsx) ${timeCommand(process.execPath, ['cli/bin/cfdi.js', '--help'])}`,
    );

    const env = { LOG_LEVEL: 'info', API_PORT: '0', TEMPORAL_TASK_QUEUE: `bench-runtime-${process.pid}` };
    const services: [string, string, string, RegExp][] = [
      ['API', 'apps/api/dist/server.js', 'apps/api/src/server.ts', /Server listening/],
      ['worker', 'apps/worker/dist/main.js', 'apps/worker/src/main.ts', /state: 'RUNNING'/],
    ];
    for (const [service, dist, source, ready] of services) {
      for (const [name, node] of nodes) {
        const samples = [];
        for (let i = 0; i < Math.min(runs, 3); i++) samples.push(await coldStart(node, [dist], env, ready));
        log(
          `${name}: ${service} from dist/: ready in ${median(samples.map((s) => s.ms)).toFixed(0)} ms, RSS idle ${median(samples.map((s) => s.rssMb)).toFixed(0)} MB`,
        );
      }
      // One process (no tsx CLI wrapper), so the RSS measured is the server's own.
      const samples = [];
      for (let i = 0; i < Math.min(runs, 3); i++)
        samples.push(await coldStart(process.execPath, ['--import', 'tsx', source], env, ready));
      log(
        `Node ${process.versions.node}: ${service} from sources (tsx): ready in ${median(samples.map((s) => s.ms)).toFixed(0)} ms, RSS idle ${median(samples.map((s) => s.rssMb)).toFixed(0)} MB`,
      );
    }
  } finally {
    await supervisor.stopAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
