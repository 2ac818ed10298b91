import { D, round, sum, ZERO, type Dec } from '../decimal/money';

/**
 * Prorates `total` over `weights` (rounded to `places`), giving the rounding remainder to
 * the last share so the shares add up exactly (cfdi40.md §2.6). Each share is then kept
 * inside [0, cap_i − one unit] when possible, moving any excess to other lines, so every
 * concept keeps Descuento ≤ Importe and a positive tax Base.
 */
export function prorate(total: Dec, weights: readonly Dec[], caps: readonly Dec[], places: number): Dec[] {
  const weightSum = sum(weights);
  if (weights.length === 0 || total.isZero() || weightSum.isZero()) return weights.map(() => ZERO);
  const shares = weights.map((w) => round(total.times(w).div(weightSum), places));
  const last = shares.length - 1;
  shares[last] = total.minus(sum(shares.slice(0, last)));
  return rebalance(shares, caps, places);
}

function rebalance(shares: Dec[], caps: readonly Dec[], places: number): Dec[] {
  const unit = new D(10).pow(-places);
  const limit = (i: number): Dec => D.max(ZERO, caps[i]!.minus(unit));
  let excess = ZERO;
  const out = shares.map((share, i) => {
    const clamped = D.min(D.max(share, ZERO), limit(i));
    excess = excess.plus(share.minus(clamped));
    return clamped;
  });
  // Hand the excess (or deficit) to the lines with the most room, largest first.
  const order = out.map((_, i) => i).sort((a, b) => caps[b]!.comparedTo(caps[a]!));
  for (const i of order) {
    if (excess.isZero()) break;
    const room = excess.isPositive() ? limit(i).minus(out[i]!) : out[i]!.negated();
    const move = excess.isPositive() ? D.min(excess, room) : D.max(excess, room);
    out[i] = out[i]!.plus(move);
    excess = excess.minus(move);
  }
  if (!excess.isZero()) throw new RangeError('cartDiscount is larger than the amount it applies to');
  return out;
}
