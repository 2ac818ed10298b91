import { fixed, rateText, round, sum, ZERO, type Dec } from '../decimal/money';
import type { ComputedGroup } from './computed';
import type { LineAmounts } from './lines';

export interface DocumentTotals {
  subTotal: Dec;
  descuento: Dec | null;
  totalTraslados: Dec | null;
  total: Dec;
  groups: ComputedGroup[];
}

/**
 * Document level of §1.10/§2.1: group traslados by (Impuesto, TipoFactor, TasaOCuota), sum the
 * unrounded concept values, round once to 2 decimals (MXN). Groups keep first-appearance order.
 */
export function documentTotals(lines: readonly LineAmounts[]): DocumentTotals {
  const groups = new Map<string, { impuesto: string; tipoFactor: 'Tasa' | 'Exento'; rate: Dec | null; base: Dec; importe: Dec }>();
  for (const line of lines) {
    for (const tax of line.taxes) {
      const key = `${tax.impuesto}|${tax.tipoFactor}|${tax.rate ? rateText(tax.rate) : ''}`;
      const group = groups.get(key) ?? { impuesto: tax.impuesto, tipoFactor: tax.tipoFactor, rate: tax.rate, base: ZERO, importe: ZERO };
      group.base = group.base.plus(tax.base);
      group.importe = group.importe.plus(tax.importe ?? ZERO);
      groups.set(key, group);
    }
  }
  const computed: ComputedGroup[] = [];
  let totalTraslados: Dec | null = null;
  for (const g of groups.values()) {
    if (g.tipoFactor === 'Exento') {
      computed.push({ impuesto: g.impuesto, tipoFactor: 'Exento', base: fixed(g.base, 2) });
      continue;
    }
    const importe = round(g.importe, 2);
    totalTraslados = (totalTraslados ?? ZERO).plus(importe);
    computed.push({ impuesto: g.impuesto, tipoFactor: g.tipoFactor, tasaOCuota: rateText(g.rate!), base: fixed(g.base, 2), importe: fixed(importe, 2) });
  }
  const subTotal = round(sum(lines.map((l) => l.importe)), 2);
  const hasDiscount = lines.some((l) => l.descuento !== null);
  const descuento = hasDiscount ? round(sum(lines.map((l) => l.descuento ?? ZERO)), 2) : null;
  const total = subTotal.minus(descuento ?? ZERO).plus(totalTraslados ?? ZERO);
  return { subTotal, descuento, totalTraslados, total, groups: computed };
}
