import { computePayment, type PaymentInput } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from '../documents';

/** A payment counts towards the invoice from creation until it is cancelled or fails to stamp. */
export const LIVE_PAYMENT_STATUSES = ['stamping', 'stamped', 'cancel_pending'] as const;

export async function livePayments(em: EntityManager, invoiceId: string): Promise<DocumentRow[]> {
  return em.execute(
    `select * from documents where invoice_id = ? and type = 'payment' and status in (${LIVE_PAYMENT_STATUSES.map((s) => `'${s}'`).join(', ')})
      order by num_parcialidad`,
    [invoiceId],
  );
}

/**
 * The next NumParcialidad: the lowest number no live payment holds, so a payment that replaces a cancelled one
 * takes its place in the sequence (and with no gaps it is simply the count plus one).
 */
export function nextParcialidad(live: Pick<DocumentRow, 'num_parcialidad'>[]): number {
  const taken = new Set(live.map((p) => p.num_parcialidad));
  let n = 1;
  while (taken.has(n)) n++;
  return n;
}

type Installment = NonNullable<PaymentInput['previousInstallments']>[number];

/** Micro-units (6 decimals, the most BaseDR carries), exact in bigint. */
const toMicros = (v: string): bigint => {
  const [whole, fraction = ''] = v.split('.');
  return BigInt(whole! + (fraction + '000000').slice(0, 6));
};
const fromMicros = (m: bigint): string => {
  const s = m.toString().padStart(7, '0');
  return `${s.slice(0, -6)}.${s.slice(-6)}`;
};

/**
 * Σ BaseDR / ImporteDR per tax group over the live installments, recomputed from their stored inputs: the
 * installment that settles the invoice takes the remainder so all installments add up to the invoice's taxes.
 */
export function previousInstallments(live: DocumentRow[]): Installment[] {
  const sums = new Map<string, { group: Installment; base: bigint; importe: bigint | null }>();
  for (const payment of live) {
    for (const t of computePayment(payment.input as unknown as PaymentInput).traslados) {
      const key = `${t.impuesto}|${t.tipoFactor}|${t.tasaOCuota ?? ''}`;
      const entry = sums.get(key) ?? {
        group: { impuesto: t.impuesto as Installment['impuesto'], tipoFactor: t.tipoFactor, ...(t.tasaOCuota ? { tasaOCuota: t.tasaOCuota } : {}), base: '0' },
        base: 0n,
        importe: t.importe === undefined ? null : 0n,
      };
      entry.base += toMicros(t.base);
      if (entry.importe !== null && t.importe !== undefined) entry.importe += toMicros(t.importe);
      sums.set(key, entry);
    }
  }
  return [...sums.values()].map(({ group, base, importe }) => ({
    ...group,
    base: fromMicros(base),
    ...(importe !== null ? { importe: fromMicros(importe) } : {}),
  }));
}
