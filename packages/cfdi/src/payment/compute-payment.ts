import { ceil, dec, fixed, rateText, round, trunc, writtenDecimals, ZERO, type Dec } from '../decimal/money';
import type { Impuesto } from '../tax/computed';
import type { PaymentInput, TaxGroup } from '../types';

export interface PaymentTax {
  impuesto: Impuesto;
  tipoFactor: 'Tasa' | 'Exento';
  tasaOCuota?: string;
  base: string;
  importe?: string;
}

export interface ComputedPayment {
  monto: string;
  impSaldoAnt: string;
  impPagado: string;
  impSaldoInsoluto: string;
  objetoImpDR: '01' | '02';
  /** TrasladoDR values; with a single DoctoRelacionado and EquivalenciaDR 1 they are also the TrasladoP values. */
  traslados: PaymentTax[];
  totales: Record<string, string>;
}

const FECHA = /^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

function groupKey(g: Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'>): string {
  return `${g.impuesto}|${g.tipoFactor}|${g.tasaOCuota ? rateText(g.tasaOCuota) : ''}`;
}

/** Two decimals as MXN, unless that rounds a positive value to zero (BaseDR must be > 0). */
function drAmount(value: Dec): string {
  const two = round(value, 2);
  return two.isZero() && !value.isZero() ? fixed(value, 6) : fixed(two, 2);
}

/** §2.4 band for ImporteDR given BaseDR as written. */
function inBand(importe: Dec, baseText: string, rate: Dec, places: number): boolean {
  const half = dec(10).pow(-writtenDecimals(baseText)).div(2);
  const base = dec(baseText);
  const lo = trunc(base.minus(half).times(rate), places);
  const hi = ceil(base.plus(half).minus('1e-12').times(rate), places);
  return importe.gte(lo) && importe.lte(hi);
}

/**
 * Pagos 2.0 amounts (cfdi40.md §5.5): taxes of the payment are the invoice's groups times
 * ImpPagado / Total. The installment that settles the invoice takes the remainder of each
 * base (and of each tax amount while it stays inside its band) when the earlier
 * installments are supplied, so all installments add up to the invoice.
 */
export function computePayment(input: PaymentInput): ComputedPayment {
  const total = dec(input.invoice.total);
  const monto = dec(input.monto);
  const saldoAnt = dec(input.saldoAnterior);
  if (!monto.isPositive() || monto.isZero()) throw new RangeError('monto must be greater than 0');
  if (monto.gt(saldoAnt)) throw new RangeError('monto is larger than the outstanding balance (saldoAnterior)');
  if (saldoAnt.gt(total)) throw new RangeError('saldoAnterior is larger than the invoice total');
  if (!Number.isInteger(input.numParcialidad) || input.numParcialidad < 1 || input.numParcialidad > 999) {
    throw new RangeError('numParcialidad must be an integer from 1 to 999');
  }
  if (!FECHA.test(input.fechaPago)) throw new RangeError('fechaPago must be YYYY-MM-DDTHH:MM:SS');
  const insoluto = saldoAnt.minus(monto);
  const factor = monto.div(total);
  const previous = new Map((input.previousInstallments ?? []).map((p) => [groupKey(p), p]));
  const settles = insoluto.isZero();

  // A group whose share is exactly zero (an invoice group Base of 0.00) has nothing to
  // attribute and BaseDR must be > 0, so it is left out. Every other group appears in every
  // installment (ObjetoImpDR 02 needs ImpuestosDR, CRP20246): when earlier installments'
  // rounding already used up a group's base (tiny payments), the settling one carries its
  // own proportional share instead of a remainder of zero or less. A share below 0.000001 (a tiny group, a tiny
  // payment: 0.10 exento of a 290,000.10 invoice paid 1.00) cannot be written either (BaseDR > 0); the settling
  // installment's remainder carries it.
  const shares = input.invoice.taxGroups.filter((g) => !dec(g.base).isZero()).map((g) => {
    const proportional = dec(g.base).times(factor);
    const prev = settles ? previous.get(groupKey(g)) : undefined;
    const remainder = prev ? dec(g.base).minus(dec(prev.base)) : undefined;
    return remainder?.gt(ZERO) ? { g, prev, baseValue: remainder } : { g, prev: undefined, baseValue: proportional };
  }).filter(({ baseValue }) => !round(baseValue, 6).isZero());
  const traslados = shares.map(({ g, prev, baseValue }): PaymentTax => {
    const base = drAmount(baseValue);
    if (g.tipoFactor === 'Exento') return { impuesto: g.impuesto, tipoFactor: 'Exento', base };
    const rate = dec(g.tasaOCuota!);
    let importe = round(dec(base).times(rate), 2);
    if (prev?.importe !== undefined && g.importe !== undefined) {
      const remainder = dec(g.importe).minus(dec(prev.importe));
      if (inBand(remainder, base, rate, 2)) importe = remainder;
    }
    return { impuesto: g.impuesto, tipoFactor: 'Tasa', tasaOCuota: rateText(rate), base, importe: fixed(importe, 2) };
  });

  return {
    monto: fixed(monto, 2),
    impSaldoAnt: fixed(saldoAnt, 2),
    impPagado: fixed(monto, 2),
    impSaldoInsoluto: fixed(insoluto, 2),
    objetoImpDR: traslados.length > 0 ? '02' : '01',
    traslados,
    totales: totales(traslados, monto),
  };
}

const IVA_TOTALS: Record<string, [string, string]> = {
  '0.160000': ['TotalTrasladosBaseIVA16', 'TotalTrasladosImpuestoIVA16'],
  '0.080000': ['TotalTrasladosBaseIVA8', 'TotalTrasladosImpuestoIVA8'],
  '0.000000': ['TotalTrasladosBaseIVA0', 'TotalTrasladosImpuestoIVA0'],
};

/** Totales in cadena/XSD attribute order; IEPS traslados have no total attribute. */
function totales(traslados: PaymentTax[], monto: Dec): Record<string, string> {
  const sums = new Map<string, Dec>();
  const add = (name: string, value: string): void => void sums.set(name, (sums.get(name) ?? ZERO).plus(dec(value)));
  for (const t of traslados) {
    if (t.impuesto !== '002') continue;
    if (t.tipoFactor === 'Exento') add('TotalTrasladosBaseIVAExento', t.base);
    else {
      const [base, imp] = IVA_TOTALS[t.tasaOCuota!]!;
      add(base, t.base);
      add(imp, t.importe!);
    }
  }
  const order = [
    'TotalTrasladosBaseIVA16', 'TotalTrasladosImpuestoIVA16', 'TotalTrasladosBaseIVA8', 'TotalTrasladosImpuestoIVA8',
    'TotalTrasladosBaseIVA0', 'TotalTrasladosImpuestoIVA0', 'TotalTrasladosBaseIVAExento',
  ];
  const out: Record<string, string> = {};
  for (const name of order) {
    const v = sums.get(name);
    if (v) out[name] = fixed(v, 2);
  }
  out.MontoTotalPagos = fixed(monto, 2);
  return out;
}
