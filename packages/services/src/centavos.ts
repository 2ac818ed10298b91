/**
 * Document amounts in integer centavos: they have two decimals, and the comparisons that decide an overpayment or an
 * over-credit must be exact, not float-approximate.
 */
export const toCentavos = (amount: string | number): number => Math.round(Number(amount) * 100);

export const fromCentavos = (centavos: number): string => (centavos / 100).toFixed(2);
