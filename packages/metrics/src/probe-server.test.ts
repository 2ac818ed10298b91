import { metricsAccess } from './access';
import { createMetricsRegistry } from './registry';
import { startProbeServer } from './probe-server';

async function withServer(
  config: { metricsToken: string | null; nodeEnv: string },
  run: (url: string) => Promise<void>,
): Promise<void> {
  const registry = createMetricsRegistry('worker');
  let ready = true;
  const server = await startProbeServer({
    host: '127.0.0.1',
    port: 0,
    live: () => ({ ok: true, checks: {} }),
    ready: () => ({ ok: ready, checks: { pollers: ready } }),
    metrics: async () => `${await registry.metrics()}\nextra_metric 1\n`,
    access: (authorization) => metricsAccess(config, authorization),
  });
  try {
    await run(`http://127.0.0.1:${server.port}`);
    ready = false;
    const res = await fetch(`http://127.0.0.1:${server.port}/ready`);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 503,
      body: { status: 'failing', pollers: false },
    });
  } finally {
    await server.close();
  }
}

it('serves /metrics with the bearer token only, when one is set', async () => {
  await withServer({ metricsToken: 'scrape', nodeEnv: 'production' }, async (url) => {
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape' } });
    const text = await ok.text();
    expect(ok.status).toBe(200);
    expect(text).toMatch(/^cfdi_app_info\{app="worker"\} 1$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).toMatch(/^extra_metric 1$/m);
    expect((await fetch(`${url}/live`)).status).toBe(200);
  });
});

it('refuses /metrics in production without a token, and serves it outside production', async () => {
  await withServer({ metricsToken: null, nodeEnv: 'production' }, async (url) => {
    expect((await fetch(`${url}/metrics`)).status).toBe(403);
    expect((await fetch(`${url}/ready`)).status).toBe(200);
  });
  await withServer({ metricsToken: null, nodeEnv: 'development' }, async (url) => {
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect((await fetch(`${url}/nothing`)).status).toBe(404);
  });
});
