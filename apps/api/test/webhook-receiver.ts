import http from 'node:http';
import { waitFor } from '@cfdi/testkit';

export interface ReceivedDelivery {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  event: any;
}

/** An answer of the receiver: a status code, `hang` (never answers) or `reset` (drops the connection). */
export type ReceiverAnswer = number | 'hang' | 'reset';

/**
 * A webhook receiver on 127.0.0.1 for tests: records every request; each path answers from its plan in order (the
 * last answer repeats; 200 without a plan).
 */
export async function startReceiver() {
  const received: ReceivedDelivery[] = [];
  const plans = new Map<string, ReceiverAnswer[]>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const rawBody = Buffer.concat(chunks).toString('utf8');
      received.push({ path, headers: request.headers, rawBody, event: JSON.parse(rawBody) });
      const plan = plans.get(path) ?? [];
      const answer = plan.length > 1 ? plan.shift()! : (plan[0] ?? 200);
      if (answer === 'hang') return void hanging.add(response);
      if (answer === 'reset') return void request.socket.destroy();
      response.writeHead(answer, {
        'content-type': 'text/plain',
        ...(answer >= 300 && answer < 400 ? { location: 'http://127.0.0.1:1/elsewhere' } : {}),
      });
      response.end(`answer ${answer} ${'x'.repeat(2000)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    plan: (path: string, answers: ReceiverAnswer[]) => plans.set(path, [...answers]),
    at: (path: string) => received.filter((r) => r.path === path),
    /** Waits until `path` got at least `count` requests matching `where`. */
    waitFor: (
      path: string,
      count: number,
      where: (r: ReceivedDelivery) => boolean = () => true,
      timeoutMs = 60_000,
    ) =>
      waitFor(
        async () => {
          const matching = received.filter((r) => r.path === path && where(r));
          return matching.length >= count ? matching : undefined;
        },
        { timeoutMs, what: `${count} deliveries to ${path}` },
      ),
    async close() {
      for (const response of hanging) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
