import { daysBetween } from './antiguedad';

const lastDayOfMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

/**
 * The days an ordinary payroll may pay for a period (both ends included): its calendar days, or its days in
 * 30-day months when that is more, the payroll convention that pays 15 days for Feb 16–28 and 30 for a whole
 * February (a period ending on the month's last day ends on day 30).
 */
export function payablePeriodDays(fechaInicialPago: string, fechaFinalPago: string): number {
  const calendar = daysBetween(fechaInicialPago, fechaFinalPago) + 1;
  const [y1, m1, d1] = fechaInicialPago.split('-').map(Number) as [number, number, number];
  const [y2, m2, d2] = fechaFinalPago.split('-').map(Number) as [number, number, number];
  const end = d2 === lastDayOfMonth(y2, m2) ? 30 : Math.min(d2, 30);
  const commercial = (y2 - y1) * 360 + (m2 - m1) * 30 + (end - Math.min(d1, 30)) + 1;
  return Math.max(calendar, commercial);
}
