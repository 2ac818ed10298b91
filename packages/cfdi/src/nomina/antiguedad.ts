/** Whole days from one ISO date (YYYY-MM-DD) to another, as UTC calendar days. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A real calendar date in the form YYYY-MM-DD (2026-02-30 is not). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The date `months` calendar months after `date`, on the last day of the month when the day does not exist (Jan 31 + 1 = Feb 28). */
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/** Whole years and months from `from` to `to` as anniversaries count them, then the days left. */
function calendarDifference(from: string, to: string): { years: number; months: number; days: number } {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  let months = (ty - fy) * 12 + (tm - fm);
  if (addMonths(from, months) > to) months -= 1;
  return {
    years: Math.floor(months / 12),
    months: months % 12,
    days: daysBetween(addMonths(from, months), to),
  };
}

/**
 * Nomina12 Receptor@Antigüedad from the start of the employment to the end of the period (FechaFinalPago):
 * weeks `P<n>W` = ⌊(days elapsed + 1) / 7⌋, the largest value NOM170 allows; or `P<y>Y<m>M<d>D`, the years, months
 * and days elapsed (NOM171), zero years and months left out as the XSD pattern requires.
 */
export function antiguedad(
  fechaInicioRelLaboral: string,
  fechaFinalPago: string,
  format: 'weeks' | 'ymd' = 'weeks',
): string {
  if (format === 'weeks')
    return `P${Math.floor((daysBetween(fechaInicioRelLaboral, fechaFinalPago) + 1) / 7)}W`;
  const { years, months, days } = calendarDifference(fechaInicioRelLaboral, fechaFinalPago);
  return `P${years > 0 ? `${years}Y` : ''}${months > 0 ? `${months}M` : ''}${days}D`;
}
