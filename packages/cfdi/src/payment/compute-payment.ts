import {
  ceil,
  D,
  dec,
  fixed,
  rateText,
  round,
  trunc,
  writtenDecimals,
  ZERO,
  type Dec,
} from '../decimal/money';
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

const FECHA =
  /^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

function groupKey(g: Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'>): string {
  return `${g.impuesto}|${g.tipoFactor}|${g.tasaOCuota ? rateText(g.tasaOCuota) : ''}`;
}

/** Two decimals as MXN, unless that rounds a positive value to zero (BaseDR must be > 0). */
function drAmount(value: Dec): string {
  const two = round(value, 2);
  return two.isZero() && !value.isZero() ? fixed(value, 6) : fixed(two, 2);
}

/** An exact difference written as it is: with 2 decimals when it is whole centavos, else with 6. */
function exactAmount(value: Dec): string {
  return fixed(value, round(value, 2).equals(value) ? 2 : 6);
}

/** §2.4 band for a 2-decimal ImporteDR given BaseDR as written: [LI, LS]. */
function band(baseText: string, rate: Dec): [Dec, Dec] {
  const half = dec(10).pow(-writtenDecimals(baseText)).div(2);
  const base = dec(baseText);
  return [trunc(base.minus(half).times(rate), 2), ceil(base.plus(half).minus('1e-12').times(rate), 2)];
}

/**
 * Pagos 2.0 amounts (cfdi40.md §5.5): taxes of the payment are the invoice's groups times ImpPagado / Total. Every
 * installment is computed cumulatively: its BaseDR and ImporteDR are what the invoice's group times the share paid
 * so far (this installment included) comes to, rounded, minus what the earlier installments carried. Rounding never
 * accumulates, and the installment that settles the invoice (share 1, or 1 − the credit notes' share) lands exactly
 * on the invoice's group: Σ BaseDR and Σ ImporteDR equal its Base and Importe. ImporteDR stays inside the §2.4 band
 * of its BaseDR (CRP20254); a cumulative value outside it is clamped and the next installment takes the difference.
 */
export function computePayment(input: PaymentInput): ComputedPayment {
  const total = dec(input.invoice.total);
  const monto = dec(input.monto);
  const saldoAnt = dec(input.saldoAnterior);
  const credited = dec(input.credited ?? 0);
  if (!monto.isPositive() || monto.isZero()) throw new RangeError('monto must be greater than 0');
  if (monto.gt(saldoAnt))
    throw new RangeError('monto is larger than the outstanding balance (saldoAnterior)');
  if (credited.isNegative() || saldoAnt.plus(credited).gt(total))
    throw new RangeError('saldoAnterior plus the credited amount is larger than the invoice total');
  if (!Number.isInteger(input.numParcialidad) || input.numParcialidad < 1 || input.numParcialidad > 999) {
    throw new RangeError('numParcialidad must be an integer from 1 to 999');
  }
  if (!FECHA.test(input.fechaPago)) throw new RangeError('fechaPago must be YYYY-MM-DDTHH:MM:SS');
  const insoluto = saldoAnt.minus(monto);
  const factor = monto.div(total);
  // Share of the invoice paid once this installment is stamped: what is neither outstanding nor credited.
  const paidShare = total.minus(credited).minus(insoluto).div(total);
  const previous = new Map((input.previousInstallments ?? []).map((p) => [groupKey(p), p]));

  // A group whose share is exactly zero (an invoice group Base of 0.00) has nothing to attribute and BaseDR must be
  // > 0, so it is left out. Every other group appears in every installment (ObjetoImpDR 02 needs ImpuestosDR,
  // CRP20246): when earlier installments already carried a group's cumulative base (tiny payments), this one carries
  // its own proportional share instead of a difference of zero or less. A share below 0.000001 cannot be written
  // either (BaseDR > 0); a later installment's cumulative difference carries it.
  const shares = input.invoice.taxGroups
    .filter((g) => !dec(g.base).isZero())
    .map((g) => {
      const prev = previous.get(groupKey(g));
      const difference = cumulative(g.base, paidShare).minus(dec(prev?.base ?? 0));
      return difference.gt(ZERO)
        ? { g, prev, base: exactAmount(difference) }
        : { g, prev, base: drAmount(dec(g.base).times(factor)) };
    })
    .filter(({ base }) => !dec(base).isZero());
  const traslados = shares.map(({ g, prev, base }): PaymentTax => {
    if (g.tipoFactor === 'Exento') return { impuesto: g.impuesto, tipoFactor: 'Exento', base };
    const rate = dec(g.tasaOCuota!);
    const [lo, hi] = band(base, rate);
    const wanted =
      g.importe === undefined
        ? round(dec(base).times(rate), 2)
        : cumulative(g.importe, paidShare).minus(dec(prev?.importe ?? 0));
    const importe = D.min(D.max(wanted, lo), hi);
    return {
      impuesto: g.impuesto,
      tipoFactor: 'Tasa',
      tasaOCuota: rateText(rate),
      base,
      importe: fixed(importe, 2),
    };
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

/** An invoice group's amount times the share paid so far, in centavos; the whole amount, exactly, at share 1. */
function cumulative(amount: string, share: Dec): Dec {
  return share.equals(1) ? dec(amount) : round(dec(amount).times(share), 2);
}

const IVA_TOTALS: Record<string, [string, string]> = {
  '0.160000': ['TotalTrasladosBaseIVA16', 'TotalTrasladosImpuestoIVA16'],
  '0.080000': ['TotalTrasladosBaseIVA8', 'TotalTrasladosImpuestoIVA8'],
  '0.000000': ['TotalTrasladosBaseIVA0', 'TotalTrasladosImpuestoIVA0'],
};

/** Totales in cadena/XSD attribute order; IEPS traslados have no total attribute. */
function totales(traslados: PaymentTax[], monto: Dec): Record<string, string> {
  const sums = new Map<string, Dec>();
  const add = (name: string, value: string): void =>
    void sums.set(name, (sums.get(name) ?? ZERO).plus(dec(value)));
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
    'TotalTrasladosBaseIVA16',
    'TotalTrasladosImpuestoIVA16',
    'TotalTrasladosBaseIVA8',
    'TotalTrasladosImpuestoIVA8',
    'TotalTrasladosBaseIVA0',
    'TotalTrasladosImpuestoIVA0',
    'TotalTrasladosBaseIVAExento',
  ];
  const out: Record<string, string> = {};
  for (const name of order) {
    const v = sums.get(name);
    if (v) out[name] = fixed(v, 2);
  }
  out.MontoTotalPagos = fixed(monto, 2);
  return out;
}
