import http from 'node:http';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the fake PAC does with one request. */
export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

/** A raw HTTP server that answers each request with the next scripted behaviour and records it. */
export async function scriptedServer(): Promise<{
  url: string;
  received: Received[];
  next(...behaviours: Behaviour[]): void;
  close(): Promise<void>;
}> {
  const queue: Behaviour[] = [];
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const behaviour = queue.shift() ?? reply(500, 'no behaviour scripted');
      behaviour(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    next: (...b) => queue.push(...b),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const reply =
  (status: number, body: string, headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8', ...headers });
    res.end(body);
  };

/** Accepts the request and never answers. */
export const hang: Behaviour = () => undefined;

/** Reads the whole request, then resets the TCP connection without answering. */
export const reset: Behaviour = (req) => req.socket.resetAndDestroy();

/** Starts the answer, then resets mid-body. */
export const resetMidResponse: Behaviour = (req, res) => {
  res.writeHead(200, { 'content-type': 'text/xml', 'content-length': '10000' });
  res.write('<?xml version="1.0"?><senv:Envelope');
  setTimeout(() => req.socket.resetAndDestroy(), 20);
};
