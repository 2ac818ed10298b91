/**
 * HTTP throughput of GET /v1/catalogs/products through the real API server (auth, rate limit,
 * validation and serialisation included) with autocannon, cycling through the same query mix as
 * search-bench.ts. The server runs in its own process (apps/api/src/server.ts) so autocannon does not
 * share its event loop. Needs PostgreSQL with the catalogs imported into $DATABASE_URL, and Redis.
 *   npx tsx bench/catalogs/http-bench.ts [seconds] [connections]
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { readSnapshot } from '@cfdi/catalogs';
import { createAccount } from '@cfdi/services';
import { queryMix } from './query-mix';

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`API at ${url} did not become healthy`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function main(): Promise<void> {
  const [seconds = 10, connections = 10] = process.argv.slice(2).map(Number);
  const config = loadConfig();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(__dirname, '../../apps/api/src/server.ts')],
    {
      env: { ...process.env, API_PORT: String(port), API_HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const orm = await createOrm(config.databaseUrl);
  try {
    await waitForHealth(url, 30_000);
    // A rate limit high enough that the benchmark measures the endpoint, not 429s.
    const { testKey } = await createAccount(orm.em.fork(), config, {
      name: 'catalog bench',
      rateLimitPerMinute: 100_000_000,
    });
    const headers = { authorization: `Bearer ${testKey}` };
    const paths = queryMix((await readSnapshot(orm.em.fork())).products).map(
      (q) => `/v1/catalogs/products?limit=20&keyword=${encodeURIComponent(q)}`,
    );
    await fetch(`${url}${paths[0]}`, { headers }); // the first catalog request loads the index

    const run = async (label: string, cycle: string[]) => {
      let next = 0;
      const result = await autocannon({
        url,
        connections,
        duration: seconds,
        headers,
        requests: [{ setupRequest: (request) => ({ ...request, path: cycle[next++ % cycle.length]! }) }],
      });
      console.log(
        `${label}, ${connections} connections, ${seconds} s: ${Math.round(result.requests.average)} req/s, ` +
          `latency p50 ${result.latency.p50} ms, p97.5 ${result.latency.p97_5} ms, p99 ${result.latency.p99} ms, ` +
          `non-2xx ${result.non2xx}, errors ${result.errors}`,
      );
    };
    await run('GET /v1/catalogs/products (1,000 mixed keywords)', paths);
    // Same auth and rate-limit path with no search: shows how much of the cost is the search itself.
    await run('GET /v1/catalogs/formas-pago (baseline, no search)', ['/v1/catalogs/formas-pago']);
  } finally {
    server.kill('SIGTERM');
    await orm.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
