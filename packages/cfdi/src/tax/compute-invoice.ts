import { D, dec, fixed, ONE, round, sum, ZERO, type Dec } from '../decimal/money';
import type { ConceptsInput } from '../types';
import type { ComputedInvoice } from './computed';
import { prorate } from './discount';
import {
  importeBand,
  lineAmounts,
  parseLines,
  taxFactor,
  toConcept,
  type AmountText,
  type LineAmounts,
  type LineSpec,
} from './lines';
import { aggregate, documentTotals, finishTotals, withLine } from './totals';

/**
 * Concept amounts are computed with 6 decimals (§2.1: write Importe and each tax with up to 6, sum the unrounded
 * values and round once). Backed out of tax-inclusive prices they are written with 6; from net prices with 2 when
 * that is exact (1 × 10.00 → 10.00), else with 6 (1 × 0.125 → 0.125000, 10.03 × 16% → 1.604800), so no line is
 * rounded to cents before the document sums: 500 × 0.125 is a SubTotal of 62.50, not 500 × 0.13.
 */
const AMOUNT_PLACES = 6;
const INCLUSIVE_PLACES = 6;
const NET_DISCOUNT_PLACES = 2;
const STEP = new D('0.000001');

const exactInCents = (value: Dec | null | undefined): boolean => !value || round(value, 2).equals(value);
const netAmountText: AmountText = (value, alsoFits) =>
  fixed(value, exactInCents(value) && exactInCents(alsoFits) ? 2 : AMOUNT_PLACES);
const inclusiveAmountText: AmountText = (value) => fixed(value, INCLUSIVE_PLACES);

/**
 * Pure tax engine (cfdi40.md §2): concepts with their taxes, document groups and totals, as
 * decimal strings ready for the XML. Throws RangeError on inputs the SAT cannot accept
 * (bad rates, non-positive amounts, discount larger than the sale); validateInvoiceRequest
 * reports the same problems with request paths.
 */
export function computeInvoice(input: ConceptsInput): ComputedInvoice {
  const inclusive = input.pricesIncludeTax ?? true;
  const cents = input.currencyDecimals ?? 2;
  const discountPlaces = inclusive ? INCLUSIVE_PLACES : Math.min(NET_DISCOUNT_PLACES, cents);
  const lines = parseLines(input);
  checkMagnitudes(lines, input.items.length);
  const vuPlaces = (line: LineSpec): number =>
    inclusive ? INCLUSIVE_PLACES : Math.max(2, line.priceDecimals);
  const valorUnitario = lines.map((line) =>
    inclusive ? round(line.price.div(taxFactor(line)), INCLUSIVE_PLACES) : line.price,
  );
  valorUnitario.forEach((vu, i) => checkNonZeroImporte(lines[i]!, vu, i));
  const places = lines.map(() => AMOUNT_PLACES);
  const descuentos = discounts(input, lines, valorUnitario, places, discountPlaces, inclusive, cents);
  const amounts = lines.map((line, i) => lineAmounts(line, valorUnitario[i]!, descuentos[i]!, places[i]!));

  let chargedTotal: Dec | undefined;
  if (inclusive) {
    const gross = sum(lines.map((l) => l.quantity.times(l.price)));
    chargedTotal = round(gross.minus(dec(input.cartDiscount ?? 0)), cents);
    matchChargedTotal(lines, amounts, chargedTotal, places, cents);
  }

  const totals = documentTotals(amounts, cents);
  checkWritable(amounts, totals.total);
  return {
    concepts: lines.map((line, i) =>
      toConcept(line, amounts[i]!, inclusive ? inclusiveAmountText : netAmountText, vuPlaces(line)),
    ),
    subTotal: fixed(totals.subTotal, cents),
    ...(totals.descuento ? { descuento: fixed(totals.descuento, cents) } : {}),
    ...(totals.totalTraslados ? { totalImpuestosTrasladados: fixed(totals.totalTraslados, cents) } : {}),
    total: fixed(totals.total, cents),
    traslados: totals.groups,
    ...(chargedTotal ? { chargedTotal: fixed(chargedTotal, cents) } : {}),
  };
}

/** The XSD's t_Importe has at most 18 integer digits; a larger amount would make an XML no PAC accepts. */
const MAX_IMPORTE = new D('1e18');

/**
 * Above 2^53 a JSON number no longer holds every integer, so a quantity or price that large may not be the one the
 * caller sent; CFDI amounts never need it (Σ quantity × price must stay below 10^18 anyway).
 */
const MAX_EXACT_NUMBER = new D(Number.MAX_SAFE_INTEGER);

/**
 * Refuses magnitudes no CFDI can carry before any computation (the §2.3 search counts steps that grow with them):
 * each quantity and price below 2^53, every quantity × price and their sum below the XSD's 18 integer digits.
 */
function checkMagnitudes(lines: LineSpec[], itemCount: number): void {
  const label = (i: number): string => (i < itemCount ? `items[${i}]` : 'shipping');
  const gross = lines.map((line, i) => {
    if (line.quantity.gt(MAX_EXACT_NUMBER))
      throw new RangeError(
        `${label(i)}.quantity is over ${Number.MAX_SAFE_INTEGER}, beyond what a JSON number holds exactly`,
      );
    if (line.price.gt(MAX_EXACT_NUMBER))
      throw new RangeError(
        `${i < itemCount ? `items[${i}].unitPrice` : 'shipping.amount'} is over ${Number.MAX_SAFE_INTEGER}, beyond what a JSON number holds exactly`,
      );
    const amount = line.quantity.times(line.price);
    if (amount.gte(MAX_IMPORTE))
      throw new RangeError(
        `${label(i)}: quantity × unitPrice is over the 18 integer digits a CFDI amount can have`,
      );
    return amount;
  });
  if (sum(gross).gte(MAX_IMPORTE))
    throw new RangeError('items: the invoice total is over the 18 integer digits a CFDI amount can have');
}

function checkWritable(amounts: LineAmounts[], total: Dec): void {
  amounts.forEach((line, i) => {
    if (line.importe.gte(MAX_IMPORTE))
      throw new RangeError(
        `items[${i}]: quantity × unitPrice is over the 18 integer digits a CFDI amount can have`,
      );
  });
  if (total.gte(MAX_IMPORTE))
    throw new RangeError('items: the invoice total is over the 18 integer digits a CFDI amount can have');
}

/** Base must be > 0: a line whose Cantidad × ValorUnitario rounds to 0.000000 cannot be written. */
function checkNonZeroImporte(line: LineSpec, vu: Dec, index: number): void {
  if (round(line.quantity.times(vu), AMOUNT_PLACES).isZero())
    throw new RangeError(`items[${index}]: quantity × unitPrice is below 0.000001`);
}

/**
 * Cart discount per line (null = no Descuento attribute). Net prices: prorated by Importe.
 * Tax-inclusive prices: the discount is what came off the customer's charge, so it is
 * prorated by the gross line amount and each share is converted to a net Descuento.
 */
function discounts(
  input: ConceptsInput,
  lines: LineSpec[],
  vu: Dec[],
  linePlaces: number[],
  places: number,
  inclusive: boolean,
  cents: number,
): Array<Dec | null> {
  const cart = dec(input.cartDiscount ?? 0);
  if (cart.isZero()) return lines.map(() => null);
  if (cart.isNegative()) throw new RangeError('cartDiscount must be >= 0');
  // Shares are rounded to cents with net prices; a finer total would leave sub-cent remainders.
  if (cart.decimalPlaces() > cents)
    throw new RangeError(`cartDiscount must have at most ${cents} decimals (the currency's)`);
  const idx = lines.flatMap((l, i) => (l.discountable ? [i] : []));
  const importes = idx.map((i) => round(lines[i]!.quantity.times(vu[i]!), linePlaces[i]!));
  const out: Array<Dec | null> = lines.map(() => null);
  if (!inclusive) {
    prorate(cart, importes, importes, places).forEach((share, k) => (out[idx[k]!] = share));
    return out;
  }
  const gross = idx.map((i) => lines[i]!.quantity.times(lines[i]!.price));
  const grossShares = prorate(cart, gross, gross, places);
  const net = grossShares.map((g, k) => round(g.div(taxFactor(lines[idx[k]!]!)), places));
  // Re-clamp after the conversion: rounding may push a tiny line's Descuento to its Importe.
  prorate(sum(net), net, importes, places).forEach((share, k) => (out[idx[k]!] = share));
  return out;
}

/** Quantity 1 first (one step = one micro-peso), fractional quantities last (huge price moves). */
function stepRank(line: LineSpec): number {
  const q = line.quantity.toNumber();
  return q < 1 ? 1e12 / q : q;
}

/** A line with a positive tax: its ValorUnitario is already a 6-decimal quotient, so a micro-step shows nowhere. */
const isTaxed = (line: LineSpec): boolean => taxFactor(line).gt(ONE);

/**
 * §2.3: when the forward computation misses what the customer paid by a cent or so, move one knob of one line in
 * 0.000001 steps, where it changes the fewest visible amounts (docs/decisions.md): taxed lines first, whose
 * ValorUnitario is a 6-decimal quotient of the price anyway, and only then exempt or 0 % lines, whose ValorUnitario is
 * the price itself (a 1,000.00 item would show 999.99). Within each, ValorUnitario first, finest steps (small
 * quantities) first; when no ValorUnitario step lands on the target (large quantities, or roundings that jump two
 * cents at once), the line's Importe moves inside the §2.4 band the SAT accepts for Cantidad × ValorUnitario, and then
 * its Descuento. Total is monotone in each knob, so each is a binary search.
 */
function matchChargedTotal(
  lines: LineSpec[],
  amounts: LineAmounts[],
  target: Dec,
  places: number[],
  cents: number,
): void {
  const current = documentTotals(amounts, cents).total;
  if (current.equals(target)) return;
  const byRank = lines
    .map((line, i) => ({ line, i }))
    .sort(
      (a, b) =>
        stepRank(a.line) - stepRank(b.line) || amounts[b.i]!.importe.comparedTo(amounts[a.i]!.importe),
    );
  const groups = [
    byRank.filter((c) => isTaxed(c.line)).slice(0, 8),
    byRank.filter((c) => !isTaxed(c.line)).slice(0, 8),
  ];
  const knobs: Knob[] = ['valorUnitario', 'importe', 'descuento'];
  for (const candidates of groups) {
    for (const knob of knobs) {
      for (const { line, i } of candidates) {
        if (tryLine(line, i, knob, amounts, target, current, places[i]!, cents)) return;
      }
    }
  }
}

type Knob = 'valorUnitario' | 'importe' | 'descuento';

/**
 * Steps are counted in exact integers (bigint micro-units): JS numbers stop counting above 2^53, where
 * `lo = mid + 1` no longer moves and the search would spin for ever (quantity 1e18 froze the API).
 */
type Steps = bigint;

/** A binary search over a range below 2^256 ends in at most 257 halvings; anything more is a bug, not a slow input. */
const MAX_SEARCH_ITERATIONS = 260;

const toSteps = (v: Dec): Steps => BigInt(v.div(STEP).toFixed(0, D.ROUND_FLOOR));
const maxSteps = (a: Steps, b: Steps): Steps => (a > b ? a : b);
const minSteps = (a: Steps, b: Steps): Steps => (a < b ? a : b);
const absSteps = (a: Steps): Steps => (a < 0n ? -a : a);

/** Moves one knob of one line by `steps` micro-units; the total never decreases with `steps`. */
function moved(line: LineSpec, o: LineAmounts, knob: Knob, steps: Steps, places: number): LineAmounts {
  const delta = STEP.times(steps.toString());
  if (knob === 'valorUnitario') return lineAmounts(line, o.valorUnitario.plus(delta), o.descuento, places);
  if (knob === 'importe')
    return lineAmounts(line, o.valorUnitario, o.descuento, places, o.importe.plus(delta));
  return lineAmounts(line, o.valorUnitario, o.descuento!.minus(delta), places, o.importe);
}

/** Step range that keeps the knob legal: ValorUnitario > 0, Importe inside its band, 0 ≤ Descuento < Importe. */
function legalRange(line: LineSpec, o: LineAmounts, knob: Knob, places: number): [Steps, Steps | null] {
  if (knob === 'valorUnitario') return [-toSteps(o.valorUnitario) + 1n, null];
  if (knob === 'importe') {
    const [min, max] = importeBand(line, o.valorUnitario, INCLUSIVE_PLACES, places);
    return [
      maxSteps(toSteps(min.minus(o.importe)), toSteps(o.descuento ?? ZERO) - toSteps(o.importe) + 1n),
      toSteps(max.minus(o.importe)),
    ];
  }
  return [toSteps(o.descuento!.minus(o.importe)) + 1n, toSteps(o.descuento!)];
}

/** Smallest step in [lo, hi] whose total is not below the target (total is monotone in the step). */
function lowestReaching(lo: Steps, hi: Steps, totalAt: (steps: Steps) => Dec, target: Dec): Steps {
  for (let iteration = 0; lo < hi; iteration++) {
    if (iteration >= MAX_SEARCH_ITERATIONS)
      throw new Error(
        `tax engine: the one-cent adjustment search did not end within ${MAX_SEARCH_ITERATIONS} steps`,
      );
    const mid = lo + (hi - lo) / 2n;
    if (totalAt(mid).lessThan(target)) lo = mid + 1n;
    else hi = mid;
  }
  return lo;
}

function tryLine(
  line: LineSpec,
  i: number,
  knob: Knob,
  amounts: LineAmounts[],
  target: Dec,
  current: Dec,
  places: number,
  cents: number,
): boolean {
  const original = amounts[i]!;
  if (knob === 'descuento' && !original.descuento) return false;
  // Sums of every other line are fixed while this one moves: aggregate them once.
  const others = aggregate(amounts.filter((_, k) => k !== i));
  const at = (steps: Steps): LineAmounts => moved(line, original, knob, steps, places);
  const totalAt = (steps: Steps): Dec => finishTotals(withLine(others, at(steps)), cents).total;
  const perStep = (knob === 'valorUnitario' ? line.quantity : ONE).times(taxFactor(line)).times(STEP);
  const guess = BigInt(target.minus(current).div(perStep).toFixed(0, D.ROUND_HALF_UP));
  // Two of the currency's smallest units (0.02 for MXN): how far one rounding of the total can jump.
  const twoUnits = new D(2).times(new D(10).pow(-cents));
  const span = absSteps(guess) + BigInt(twoUnits.div(perStep).toFixed(0, D.ROUND_CEIL)) + 2n;
  const [min, max] = legalRange(line, original, knob, places);
  const lo = maxSteps(guess - span, min);
  const hi = max === null ? guess + span : minSteps(guess + span, max);
  if (lo > hi) return false;
  const found = lowestReaching(lo, hi, totalAt, target);
  const candidate = at(found);
  if (!totalAt(found).equals(target) || !candidate.taxes.every((t) => t.base.greaterThan(ZERO))) return false;
  amounts[i] = candidate;
  return true;
}
