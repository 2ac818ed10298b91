// What the stamping benches send and how they read latencies: one definition for bench/stamp/run.ts and topologies.ts.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

export const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};
const item = (i: number) => ({
  productCode: '43211503',
  unitCode: 'H87',
  description: `Equipo ${i}`,
  quantity: 1 + (i % 3),
  unitPrice: 1160 + i,
});
/** A PUE income invoice of `items` concepts. */
export const body = (merchantId: string, items: number) => ({
  merchantId,
  formaPago: '03',
  usoCfdi: 'G03',
  receiver: RECEIVER,
  items: Array.from({ length: items }, (_, i) => item(i)),
});
export const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

/**
 * POST /v1/invoices with `payload` at `connections` for `seconds`, each request under a fresh Idempotency-Key:
 * requests per second, and every answer's status and latency.
 */
export async function loadInvoices(
  url: string,
  auth: Record<string, string>,
  payload: string,
  run: { connections: number; seconds: number },
) {
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const result = await autocannon({
    url: `${url}/v1/invoices`,
    method: 'POST',
    connections: run.connections,
    duration: run.seconds,
    body: payload,
    headers: auth,
    setupClient: (client) => {
      client.setHeaders({ ...auth, 'idempotency-key': `b-${randomBytes(8).toString('hex')}` });
      client.on('response', (status: number, _bytes: number, responseTime: number) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        latencies.push(responseTime);
        client.setHeaders({ ...auth, 'idempotency-key': `b-${randomBytes(8).toString('hex')}` });
      });
    },
  });
  return { rate: result.requests.average, statuses, latencies };
}
