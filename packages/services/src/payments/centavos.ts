/**
 * Payment balances in integer centavos: amounts are validated to two decimals and the comparisons that decide an
 * overpayment must be exact, not float-approximate.
 */
export const toCentavos = (amount: string | number): number => Math.round(Number(amount) * 100);

export const fromCentavos = (centavos: number): string => (centavos / 100).toFixed(2);
