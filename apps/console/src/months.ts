import { yearMonthAt } from '@cfdi/cfdi';

/** The last `count` calendar months in Mexico City as YYYY-MM, oldest first, ending with the current one. */
export function lastMonths(count: number, now = new Date()): string[] {
  const [year, month] = yearMonthAt(now);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(year, month - 1 - (count - 1 - i), 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}
