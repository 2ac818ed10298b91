import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MetricsAccess } from './access';

export interface ProbeReport {
  ok: boolean;
  /** What was checked, shown in the JSON body (e.g. `{ pollers: true, temporal: false }`). */
  checks: Record<string, boolean | string>;
}

export interface ProbeServerOptions {
  host: string;
  port: number;
  /** Liveness: false makes an orchestrator restart the process. */
  live(): Promise<ProbeReport> | ProbeReport;
  /** Readiness: false takes the process out of rotation (and a rolling update waits for it). */
  ready(): Promise<ProbeReport> | ProbeReport;
  /** The Prometheus text, when the caller may scrape it (see metricsAccess). */
  metrics(): Promise<string>;
  access(authorization: string | undefined): MetricsAccess;
}

export interface ProbeServer {
  port: number;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * A small HTTP server for a process without an API of its own (the worker): GET /live, /ready and /metrics. It
 * answers nothing else and reads no body.
 */
export async function startProbeServer(options: ProbeServerOptions): Promise<ProbeServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const probe = path === '/live' ? options.live : path === '/ready' ? options.ready : null;
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return json(res, 405, { status: 'method_not_allowed' });
    if (probe) {
      Promise.resolve()
        .then(probe)
        .then(
          (report) =>
            json(res, report.ok ? 200 : 503, { status: report.ok ? 'ok' : 'failing', ...report.checks }),
          (error: Error) => json(res, 503, { status: 'failing', error: error.message }),
        );
      return;
    }
    if (path === '/metrics') {
      const access = options.access(req.headers.authorization);
      if (access === 'unauthorized')
        return json(res, 401, {
          status: 'unauthorized',
          detail: '/metrics needs `Authorization: Bearer <METRICS_TOKEN>`.',
        });
      if (access === 'forbidden')
        return json(res, 403, {
          status: 'forbidden',
          detail: '/metrics is disabled in production until METRICS_TOKEN is set.',
        });
      options.metrics().then(
        (text) =>
          res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }).end(text),
        (error: Error) => json(res, 500, { status: 'error', error: error.message }),
      );
      return;
    }
    json(res, 404, { status: 'not_found' });
  });
  // Probes are short; a scraper or kubelet that keeps a socket open must not hold the process at exit.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
