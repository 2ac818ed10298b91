import { installmentTaxGroups, type PaymentInput } from '@cfdi/cfdi';
import type { DocumentRow } from '../documents/document-row';
import { selectLivePayments } from '../documents/repository';

export { LIVE_PAYMENT_STATUSES } from '../documents/repository';

/** The invoice's live payments (see LIVE_PAYMENT_STATUSES), in NumParcialidad order. */
export const livePayments = selectLivePayments;

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
 * Σ BaseDR / ImporteDR per tax group that the live installments carried for the invoice, read from the XML each was
 * stamped with (sealed, when an operator confirmed a stamp without the PAC's copy): the next installment carries the
 * cumulative share minus these, so all installments add up to the invoice's taxes whatever the engine computes today.
 */
export function previousInstallments(live: DocumentRow[], invoiceUuid: string): Installment[] {
  const sums = new Map<string, { group: Installment; base: bigint; importe: bigint | null }>();
  for (const payment of live) {
    const xml = payment.stamped_xml ?? payment.sealed_xml;
    if (!xml) throw new Error(`installment ${payment.id} has no XML to add up`);
    for (const t of installmentTaxGroups(xml, invoiceUuid)) {
      const tasaOCuota = t.tasaOCuota;
      const key = `${t.impuesto}|${t.tipoFactor}|${tasaOCuota ?? ''}`;
      const entry = sums.get(key) ?? {
        group: {
          impuesto: t.impuesto,
          tipoFactor: t.tipoFactor,
          ...(tasaOCuota ? { tasaOCuota } : {}),
          base: '0',
        },
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
