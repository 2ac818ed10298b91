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
  /** Monto, in MonedaP decimals. */
  monto: string;
  monedaP: string;
  /** TipoCambioP as written: `1` for MXN. */
  tipoCambioP: string;
  monedaDR: string;
  /** EquivalenciaDR as written: `1` when MonedaDR = MonedaP. */
  equivalenciaDR: string;
  /** The three balances, in MonedaDR decimals. */
  impSaldoAnt: string;
  impPagado: string;
  impSaldoInsoluto: string;
  objetoImpDR: '01' | '02';
  /** TrasladoDR values, in MonedaDR. */
  traslados: PaymentTax[];
  /** TrasladoP values, in MonedaP: the TrasladoDR ones divided by EquivalenciaDR (equal to them when it is 1). */
  trasladosP: PaymentTax[];
  totales: Record<string, string>;
}

const FECHA =
  /^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

function groupKey(g: Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'>): string {
  return `${g.impuesto}|${g.tipoFactor}|${g.tasaOCuota ? rateText(g.tasaOCuota) : ''}`;
}

/** `places` decimals (2 for MXN), unless that rounds a positive value to zero (BaseDR, BaseP must be > 0). */
function drAmount(value: Dec, places: number): string {
  const rounded = round(value, places);
  return rounded.isZero() && !value.isZero() ? fixed(value, 6) : fixed(rounded, places);
}

/** An exact difference written as it is: with `places` decimals when that is exact, else with 6. */
function exactAmount(value: Dec, places: number): string {
  return fixed(value, round(value, places).equals(value) ? places : 6);
}

/** §2.4 band for an ImporteDR of `places` decimals given BaseDR as written: [LI, LS]. */
function band(baseText: string, rate: Dec, places: number): [Dec, Dec] {
  const half = dec(10).pow(-writtenDecimals(baseText)).div(2);
  const base = dec(baseText);
  return [
    trunc(base.minus(half).times(rate), places),
    ceil(base.plus(half).minus('1e-12').times(rate), places),
  ];
}

/**
 * CRP20217 for one DoctoRelacionado (cfdi40.md §5.4): ImpPagado / EquivalenciaDR truncated to MonedaP decimals must
 * not exceed Monto, or else Monto must lie in the SAT's band [LI, LS] of that quotient. Returns the quotient and the
 * band, at MonedaP decimals, so a caller can say which side failed.
 */
export function paymentMontoBand(
  impPagado: string,
  equivalenciaDR: string,
  monedaPDecimals: number,
): { converted: Dec; li: Dec; ls: Dec } {
  const paid = dec(impPagado);
  const equiv = dec(equivalenciaDR);
  const halfPaid = dec(10).pow(-writtenDecimals(impPagado)).div(2);
  // An EquivalenciaDR of 1 counts as having 10 decimals when the currencies differ.
  const halfEquiv = dec(10)
    .pow(-(equiv.equals(1) ? 10 : writtenDecimals(equivalenciaDR)))
    .div(2);
  return {
    converted: trunc(paid.div(equiv), monedaPDecimals),
    li: trunc(paid.minus(halfPaid).div(equiv.plus(halfEquiv)), monedaPDecimals),
    ls: ceil(paid.plus(halfPaid).div(equiv.minus(halfEquiv)), monedaPDecimals),
  };
}

/** Whether Monto covers ImpPagado / EquivalenciaDR as the SAT checks it (CRP20217). */
export function montoCoversPaid(
  monto: string,
  impPagado: string,
  equivalenciaDR: string,
  monedaPDecimals: number,
): boolean {
  const { converted, li, ls } = paymentMontoBand(impPagado, equivalenciaDR, monedaPDecimals);
  const m = dec(monto);
  return converted.lte(m) || (li.lte(m) && m.lte(ls));
}

/**
 * Pagos 2.0 amounts (cfdi40.md §5.4, §5.5). The invoice's balances, ImpPagado and the TrasladoDR are in its currency
 * (MonedaDR); Monto and the TrasladoP in MonedaP, converted with EquivalenciaDR; the Totales in MXN with TipoCambioP.
 * Taxes of the payment are the invoice's groups times ImpPagado / Total. Every
 * installment is computed cumulatively: its BaseDR and ImporteDR are what the invoice's group times the share paid
 * so far (this installment included) comes to, rounded, minus what the earlier installments carried. Rounding never
 * accumulates, and the installment that settles the invoice (share 1, or 1 − the credit notes' share) lands exactly
 * on the invoice's group: Σ BaseDR and Σ ImporteDR equal its Base and Importe. ImporteDR stays inside the §2.4 band
 * of its BaseDR (CRP20254); a cumulative value outside it is clamped and the next installment takes the difference.
 */
export function computePayment(input: PaymentInput): ComputedPayment {
  const decP = input.monedaPDecimals ?? 2;
  const decDR = input.invoice.currencyDecimals ?? 2;
  const monedaP = input.monedaP ?? 'MXN';
  const monedaDR = input.invoice.moneda ?? 'MXN';
  // BaseDR and ImporteDR round to the invoice's decimals, as its groups did (JPY 0, KWD 3): the settling installment
  // lands on the group's Importe, which must sit inside the band of an ImporteDR written with those decimals.
  const places = decDR;
  const total = dec(input.invoice.total);
  const monto = dec(input.monto);
  const equivText = monedaDR === monedaP ? '1' : input.equivalenciaDR;
  if (monedaP === 'XXX' || monedaDR === 'XXX') throw new RangeError('MonedaP and MonedaDR are never XXX');
  if (
    monedaP === 'MXN'
      ? input.tipoCambioP !== undefined && !dec(input.tipoCambioP).equals(1)
      : !input.tipoCambioP
  )
    throw new RangeError('tipoCambioP is required unless monedaP is MXN, and must be 1 with MXN');
  if (equivText === undefined)
    throw new RangeError('equivalenciaDR is required when the invoice and the payment currencies differ');
  if (input.equivalenciaDR !== undefined && monedaDR === monedaP && !dec(input.equivalenciaDR).equals(1))
    throw new RangeError('equivalenciaDR must be 1 when the invoice and the payment share a currency');
  const equiv = dec(equivText);
  if (!equiv.isPositive() || equiv.isZero()) throw new RangeError('equivalenciaDR must be greater than 0');
  const paid = input.impPagado !== undefined ? dec(input.impPagado) : round(monto.times(equiv), decDR);
  const saldoAnt = dec(input.saldoAnterior);
  const credited = dec(input.credited ?? 0);
  if (!monto.isPositive() || monto.isZero()) throw new RangeError('monto must be greater than 0');
  if (!paid.isPositive() || paid.isZero()) throw new RangeError('impPagado must be greater than 0');
  if (paid.gt(saldoAnt))
    throw new RangeError('impPagado is larger than the outstanding balance (saldoAnterior)');
  if (!montoCoversPaid(fixed(monto, decP), fixed(paid, decDR), equivText, decP))
    throw new RangeError('impPagado / equivalenciaDR is more than monto beyond the SAT tolerance (CRP20217)');
  if (credited.isNegative() || saldoAnt.plus(credited).gt(total))
    throw new RangeError('saldoAnterior plus the credited amount is larger than the invoice total');
  if (!Number.isInteger(input.numParcialidad) || input.numParcialidad < 1 || input.numParcialidad > 999) {
    throw new RangeError('numParcialidad must be an integer from 1 to 999');
  }
  if (!FECHA.test(input.fechaPago)) throw new RangeError('fechaPago must be YYYY-MM-DDTHH:MM:SS');
  const insoluto = saldoAnt.minus(paid);
  const factor = paid.div(total);
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
      const difference = cumulative(g.base, paidShare, places).minus(dec(prev?.base ?? 0));
      return difference.gt(ZERO)
        ? { g, prev, base: exactAmount(difference, places) }
        : { g, prev, base: drAmount(dec(g.base).times(factor), places) };
    })
    .filter(({ base }) => !dec(base).isZero());
  const traslados = shares.map(({ g, prev, base }): PaymentTax => {
    if (g.tipoFactor === 'Exento') return { impuesto: g.impuesto, tipoFactor: 'Exento', base };
    const rate = dec(g.tasaOCuota!);
    const [lo, hi] = band(base, rate, places);
    const wanted =
      g.importe === undefined
        ? round(dec(base).times(rate), places)
        : cumulative(g.importe, paidShare, places).minus(dec(prev?.importe ?? 0));
    const importe = D.min(D.max(wanted, lo), hi);
    return {
      impuesto: g.impuesto,
      tipoFactor: 'Tasa',
      tasaOCuota: rateText(rate),
      base,
      importe: fixed(importe, places),
    };
  });
  // ImpuestosP in MonedaP (§5.5): BaseP = Σ BaseDR / EquivalenciaDR, ImporteP likewise, at MonedaP decimals.
  const trasladosP = equiv.equals(1)
    ? traslados
    : traslados.map((t): PaymentTax => ({
        ...t,
        base: drAmount(dec(t.base).div(equiv), decP),
        ...(t.importe !== undefined ? { importe: fixed(dec(t.importe).div(equiv), decP) } : {}),
      }));
  const tipoCambioP = monedaP === 'MXN' ? '1' : input.tipoCambioP!;

  return {
    monto: fixed(monto, decP),
    monedaP,
    tipoCambioP,
    monedaDR,
    equivalenciaDR: equivText,
    impSaldoAnt: fixed(saldoAnt, decDR),
    impPagado: fixed(paid, decDR),
    impSaldoInsoluto: fixed(insoluto, decDR),
    objetoImpDR: traslados.length > 0 ? '02' : '01',
    traslados,
    trasladosP,
    totales: totales(trasladosP, monto, dec(tipoCambioP)),
  };
}

/** An invoice group's amount times the share paid so far, in centavos; the whole amount, exactly, at share 1. */
function cumulative(amount: string, share: Dec, places: number): Dec {
  return share.equals(1) ? dec(amount) : round(dec(amount).times(share), places);
}

const IVA_TOTALS: Record<string, [string, string]> = {
  '0.160000': ['TotalTrasladosBaseIVA16', 'TotalTrasladosImpuestoIVA16'],
  '0.080000': ['TotalTrasladosBaseIVA8', 'TotalTrasladosImpuestoIVA8'],
  '0.000000': ['TotalTrasladosBaseIVA0', 'TotalTrasladosImpuestoIVA0'],
};

/**
 * Totales in cadena/XSD attribute order, always in MXN with 2 decimals: the TrasladoP values and Monto times
 * TipoCambioP (CRP20201–20211); IEPS traslados have no total attribute.
 */
function totales(traslados: PaymentTax[], monto: Dec, tipoCambioP: Dec): Record<string, string> {
  const sums = new Map<string, Dec>();
  const add = (name: string, value: string): void =>
    void sums.set(name, (sums.get(name) ?? ZERO).plus(dec(value).times(tipoCambioP)));
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
  out.MontoTotalPagos = fixed(monto.times(tipoCambioP), 2);
  return out;
}
