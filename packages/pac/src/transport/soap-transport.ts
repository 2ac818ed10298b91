import http from 'node:http';
import https from 'node:https';

export interface TransportOptions {
  /** Whole-call deadline, from connect to the last byte of the response. */
  timeoutMs: number;
  /** Shared keep-alive agents, so repeated calls reuse TLS connections. */
  agents: { http: http.Agent; https: https.Agent };
}

export interface SoapRequest {
  url: string;
  soapAction: string;
  body: string;
  correlationId: string;
  signal?: AbortSignal;
}

/**
 * What happened on the wire. `sent` means every byte of the request reached the socket, so the
 * server may have processed it: the caller must treat failures after that point as ambiguous.
 */
export type TransportOutcome =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; body: string }
  | {
      kind: 'failed';
      sent: boolean;
      cause: 'timeout' | 'aborted' | 'reset' | 'connect' | 'error';
      detail: string;
    };

const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export function createAgents(keepAliveMsecs = 1000, maxSockets = 50): TransportOptions['agents'] {
  return {
    http: new http.Agent({ keepAlive: true, keepAliveMsecs, maxSockets }),
    https: new https.Agent({ keepAlive: true, keepAliveMsecs, maxSockets }),
  };
}

/**
 * POSTs a SOAP 1.1 envelope with node:http rather than fetch: only the socket-level events tell
 * "never sent" (safe to retry) apart from "sent, answer lost" (ambiguous), which fetch hides.
 */
export function postSoap(request: SoapRequest, options: TransportOptions): Promise<TransportOutcome> {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  const payload = Buffer.from(request.body, 'utf8');
  return new Promise((resolve) => {
    let sent = false;
    let settled = false;
    const finish = (outcome: TransportOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        agent: secure ? options.agents.https : options.agents.http,
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          'content-length': payload.length,
          soapaction: `"${request.soapAction}"`,
          'x-correlation-id': request.correlationId,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          finish({
            kind: 'response',
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', (err) => finish(failure(err, true)));
        // The connection closed before the last byte: a partial answer is no answer.
        res.on('close', () => {
          if (!res.complete)
            finish({ kind: 'failed', sent: true, cause: 'reset', detail: 'response cut short' });
        });
      },
    );
    const timer = setTimeout(() => {
      finish({
        kind: 'failed',
        sent,
        cause: 'timeout',
        detail: `no complete answer within ${options.timeoutMs} ms`,
      });
      req.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish({ kind: 'failed', sent, cause: 'aborted', detail: 'aborted by the caller' });
      req.destroy();
    };
    if (request.signal?.aborted) onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('close', () => request.signal?.removeEventListener('abort', onAbort));
    req.on('finish', () => {
      sent = true;
    });
    req.on('error', (err) => finish(failure(err, sent)));
    req.end(payload);
  });
}

function failure(err: NodeJS.ErrnoException, sent: boolean): TransportOutcome {
  const code = err.code ?? '';
  if (CONNECT_ERRORS.has(code))
    return { kind: 'failed', sent: false, cause: 'connect', detail: `${code}: ${err.message}` };
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return { kind: 'failed', sent, cause: 'reset', detail: `${code}: ${err.message}` };
  return { kind: 'failed', sent, cause: 'error', detail: `${code || err.name}: ${err.message}` };
}
