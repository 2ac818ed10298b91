/**
 * Document amounts in integer centavos: they have two decimals, and the comparisons that decide an overpayment or an
 * over-credit must be exact, not float-approximate.
 */
export const toCentavos = (amount: string | number): number => Math.round(Number(amount) * 100);

export const fromCentavos = (centavos: number): string => (centavos / 100).toFixed(2);

/**
 * Amounts of a currency in its smallest unit (c_Moneda decimals: MXN and USD 2, JPY 0, KWD 3), integers for the same
 * exact comparisons in an invoice's own currency.
 */
export const toMinorUnits = (amount: string | number, decimals: number): number =>
  Math.round(Number(amount) * 10 ** decimals);

export const fromMinorUnits = (units: number, decimals: number): string =>
  (units / 10 ** decimals).toFixed(decimals);
