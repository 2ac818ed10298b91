import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, resolveAllowed } from '@cfdi/services';

/** Receivers get 10 s to answer; slower ones are retried later (the spec's delivery timeout). */
const WEBHOOK_TIMEOUT_MS = 10_000;
const RESPONSE_BYTES_KEPT = 1024;

export interface PostResult {
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KB of the response body. */
  responseBody: string | null;
  error: string | null;
}

/**
 * POSTs `body` once: no redirects followed, no connection reuse (each delivery resolves and checks the name afresh),
 * the SSRF guard applied to the addresses the socket actually connects to. Never throws: every failure is a result.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  livemode: boolean,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(url);
    // An IP literal never goes through `lookup`: check it here.
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host)) await resolveAllowed(host, livemode);
  } catch (error) {
    return {
      statusCode: null,
      durationMs: elapsed(),
      responseBody: null,
      error: `refused: ${(error as Error).message}`,
    };
  }
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(livemode),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const text = Buffer.concat(chunks)
            .subarray(0, RESPONSE_BYTES_KEPT)
            .toString('utf8')
            .replace(/\0/g, '');
          const status = response.statusCode ?? null;
          const redirect =
            status !== null && status >= 300 && status < 400
              ? `redirect to ${response.headers.location ?? '(no location)'} not followed`
              : null;
          finish({ statusCode: status, responseBody: text, error: redirect });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BYTES_KEPT) chunks.push(chunk);
          kept += chunk.length;
          if (kept >= RESPONSE_BYTES_KEPT) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({
        statusCode: null,
        responseBody: null,
        error: `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`,
      });
      request.destroy();
    }, WEBHOOK_TIMEOUT_MS);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const refused = error.code === 'EWEBHOOKREFUSED';
      finish({
        statusCode: null,
        responseBody: null,
        error: refused ? `refused: ${error.message}` : `${error.code ?? 'error'}: ${error.message}`,
      });
    });
    request.end(body);
  });
}
