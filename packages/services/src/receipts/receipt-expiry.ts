import { MEXICO_CITY } from '../time';
import { globalPeriodOf, mexicoCityDay, mexicoCityMidnight, type Periodicidad } from './global-period';

/**
 * When a receipt stops being self-invoiceable and falls into the global invoice: the end of the calendar month of the
 * sale (Mexico City wall clock) plus the merchant's `receiptGraceDays` (default 0). The rule is the one issue #39 asks
 * for, after Facturapi's receipts (expiry at the end of the sale's month, extendable by the merchant): a sale nobody
 * invoiced in its month then goes into that month's global invoice. Mexico City keeps UTC−6 all year since daylight
 * saving time was abolished in 2022.
 */
export function receiptExpiry(soldAt: Date, graceDays: number, globalPeriodicity?: Periodicidad): Date {
  // With the automatic global invoice on, the sale's global period ends it instead (monthly: the same instant), when
  // the period's global run takes what is still open (see dueGlobalPeriods).
  if (globalPeriodicity) {
    const end = globalPeriodOf(mexicoCityDay(soldAt), globalPeriodicity).end;
    return new Date(mexicoCityMidnight(end).getTime() - 1 + graceDays * 86_400_000);
  }
  const local = new Intl.DateTimeFormat('en-CA', { timeZone: MEXICO_CITY, year: 'numeric', month: '2-digit' })
    .formatToParts(soldAt)
    .reduce<Record<string, string>>((parts, part) => ({ ...parts, [part.type]: part.value }), {});
  const year = Number(local.year);
  const month = Number(local.month);
  // Midnight that starts the next month in Mexico City (UTC−6), less a millisecond, plus the grace days.
  const nextMonth = Date.UTC(month === 12 ? year + 1 : year, month === 12 ? 0 : month, 1, 6);
  return new Date(nextMonth - 1 + graceDays * 86_400_000);
}
