import { fixed, rateText, round, ZERO, type Dec } from '../decimal/money';
import type { ComputedGroup, Impuesto } from './computed';
import type { LineAmounts } from './lines';

export interface DocumentTotals {
  subTotal: Dec;
  descuento: Dec | null;
  totalTraslados: Dec | null;
  total: Dec;
  groups: ComputedGroup[];
}

interface GroupSum {
  impuesto: Impuesto;
  tipoFactor: 'Tasa' | 'Exento';
  rate: Dec | null;
  base: Dec;
  importe: Dec;
}

/** Unrounded running sums of a set of concepts; cheap to copy so one line can be re-tried. */
export interface Aggregate {
  importe: Dec;
  descuento: Dec;
  hasDiscount: boolean;
  groups: Map<string, GroupSum>;
}

function emptyAggregate(): Aggregate {
  return { importe: ZERO, descuento: ZERO, hasDiscount: false, groups: new Map() };
}

export function withLine(agg: Aggregate, line: LineAmounts): Aggregate {
  const groups = new Map(agg.groups);
  for (const tax of line.taxes) {
    const key = `${tax.impuesto}|${tax.tipoFactor}|${tax.rate ? tax.rate.toFixed(6) : ''}`;
    const g = groups.get(key) ?? {
      impuesto: tax.impuesto,
      tipoFactor: tax.tipoFactor,
      rate: tax.rate,
      base: ZERO,
      importe: ZERO,
    };
    groups.set(key, { ...g, base: g.base.plus(tax.base), importe: g.importe.plus(tax.importe ?? ZERO) });
  }
  return {
    importe: agg.importe.plus(line.importe),
    descuento: agg.descuento.plus(line.descuento ?? ZERO),
    hasDiscount: agg.hasDiscount || line.descuento !== null,
    groups,
  };
}

export function aggregate(lines: readonly LineAmounts[]): Aggregate {
  return lines.reduce(withLine, emptyAggregate());
}

/**
 * Document level of §1.10/§2.1: traslados grouped by (Impuesto, TipoFactor, TasaOCuota), the
 * unrounded concept values summed and rounded once to the currency's decimals (`places`, c_Moneda: 2 for MXN, USD,
 * EUR; 0 for JPY); groups keep first-appearance order. Total = SubTotal − Descuento + TotalImpuestosTrasladados.
 */
export function finishTotals(agg: Aggregate, places = 2): DocumentTotals {
  const computed: ComputedGroup[] = [];
  let totalTraslados: Dec | null = null;
  for (const g of agg.groups.values()) {
    if (g.tipoFactor === 'Exento') {
      computed.push({ impuesto: g.impuesto, tipoFactor: 'Exento', base: fixed(g.base, places) });
      continue;
    }
    const importe = round(g.importe, places);
    totalTraslados = (totalTraslados ?? ZERO).plus(importe);
    computed.push({
      impuesto: g.impuesto,
      tipoFactor: g.tipoFactor,
      tasaOCuota: rateText(g.rate!),
      base: fixed(g.base, places),
      importe: fixed(importe, places),
    });
  }
  const subTotal = round(agg.importe, places);
  const descuento = agg.hasDiscount ? round(agg.descuento, places) : null;
  const total = subTotal.minus(descuento ?? ZERO).plus(totalTraslados ?? ZERO);
  return { subTotal, descuento, totalTraslados, total, groups: computed };
}

export function documentTotals(lines: readonly LineAmounts[], places = 2): DocumentTotals {
  return finishTotals(aggregate(lines), places);
}
