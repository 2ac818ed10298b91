import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  body: any;
}

const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};

/**
 * A small income invoice (total under 1,000 MXN, so a cancellation needs no acceptance); `ppd` takes payments.
 * `folio` makes twins: the same body and folio text sent at once must still seal to two CFDIs (issue #23 defect 2).
 */
export const invoiceBody = (merchantId: string, i: number, ppd: boolean, folio?: string) => ({
  merchantId,
  ...(folio ? { folio } : {}),
  formaPago: ppd ? '99' : '03',
  metodoPago: ppd ? 'PPD' : 'PUE',
  usoCfdi: 'G03',
  receiver: RECEIVER,
  items: [
    {
      productCode: '43211503',
      unitCode: 'H87',
      description: `Drill ${i}`,
      quantity: 1 + (i % 3),
      unitPrice: 100 + (i % 50),
    },
  ],
});

/**
 * POSTs with an Idempotency-Key and repeats the same request with the same key while the answer says "try again"
 * (409 in flight, 5xx, a connection that died with the API's database connections): the platform must turn every
 * repetition into the one outcome. With several API replicas (`base` a list), each repetition goes to the next
 * one, as a load balancer moves a client off a replica that went away. Gives up after `deadline`, reporting the
 * last answer.
 */
export async function postUntilFinal(
  base: string | string[],
  key: string,
  path: string,
  body: unknown,
  deadline: number,
  idempotencyKey = `drill-${randomBytes(8).toString('hex')}`,
): Promise<Answer> {
  const bases = typeof base === 'string' ? [base] : base;
  let last: Answer = { status: 0, body: null };
  for (let attempt = 0; Date.now() < deadline; attempt++) {
    try {
      const res = await fetch(bases[attempt % bases.length] + path, {
        method: 'POST',
        signal: AbortSignal.timeout(60_000),
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify(body),
      });
      last = { status: res.status, body: await res.json().catch(() => null) };
      if (![409, 429].includes(res.status) && res.status < 500) return last;
    } catch (error) {
      last = { status: 0, body: String(error) };
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * 2 ** Math.min(attempt, 4))));
  }
  return last;
}

export async function getJson(base: string, key: string, path: string): Promise<Answer> {
  const res = await fetch(base + path, {
    headers: { authorization: `Bearer ${key}` },
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}
