import { dec, fixed, round, sum, type Dec } from '../decimal/money';
import type { CceMercancia, ComercioExteriorInput } from '../types';

/** The amounts of a Comercio Exterior 2.0 complement as they go into the XML. */
export interface ComputedComercioExterior {
  tipoCambioUSD: string;
  totalUSD: string;
  /** ValorDolares of each Mercancia, in request order. */
  valorDolares: string[];
}

/**
 * ValorDolares of a good (CCE 2.0 matrix): CantidadAduana × ValorUnitarioAduana rounded to 2 decimals. A good without
 * customs quantity or unit value (a service line, UnidadAduana 99) has to state its ValorDolares itself.
 */
export function expectedValorDolares(
  m: Pick<CceMercancia, 'cantidadAduana' | 'valorUnitarioAduana'>,
): Dec | null {
  if (m.cantidadAduana === undefined || m.valorUnitarioAduana === undefined) return null;
  return round(dec(m.cantidadAduana).times(dec(m.valorUnitarioAduana)), 2);
}

/** Each Mercancia's ValorDolares (as sent, else computed) and TotalUSD = their sum, 2 decimals. */
export function computeComercioExterior(cce: ComercioExteriorInput): ComputedComercioExterior {
  const values = cce.mercancias.map((m, i) => {
    if (m.valorDolares !== undefined) return dec(m.valorDolares);
    const expected = expectedValorDolares(m);
    if (!expected)
      throw new RangeError(
        `comercioExterior.mercancias[${i}].valorDolares is required without cantidadAduana and valorUnitarioAduana`,
      );
    return expected;
  });
  return {
    tipoCambioUSD: dec(cce.tipoCambioUSD).toFixed(),
    totalUSD: fixed(sum(values), 2),
    valorDolares: values.map((v) => fixed(v, 2)),
  };
}

/**
 * An amount of the comprobante's currency in USD: amount × TipoCambio / TipoCambioUSD (MXN per unit of each), rounded
 * to 2 decimals; the SAT compares Σ ValorDolares of a NoIdentificacion with the Importe of its concepts this way.
 */
export function toUsd(amount: Dec, tipoCambio: string, tipoCambioUSD: string): Dec {
  return round(amount.times(dec(tipoCambio)).div(dec(tipoCambioUSD)), 2);
}
