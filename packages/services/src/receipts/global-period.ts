import { MEXICO_CITY } from '../time';

/** c_Periodicidad: 01 daily, 02 weekly, 03 fortnightly, 04 monthly, 05 bimonthly (regime 621 only). */
export type Periodicidad = '01' | '02' | '03' | '04' | '05';
export const PERIODICIDADES: readonly Periodicidad[] = ['01', '02', '03', '04', '05'];

/**
 * One period of a global invoice: the Mexico City days `start` (inclusive) to `end` (exclusive), as YYYY-MM-DD, and
 * the InformacionGlobal that describes it. A period never spans two months (except a bimonthly one, whose Meses names
 * both), so its Meses is never ambiguous: a week that crosses a month's end is two periods, one in each month.
 */
export interface GlobalPeriod {
  periodicidad: Periodicidad;
  start: string;
  end: string;
  meses: string;
  anio: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (y: number, m: number, d: number) => {
  const date = new Date(Date.UTC(y, m - 1, d));
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
};
const parts = (day: string) => day.split('-').map(Number) as [number, number, number];

/** The Mexico City calendar day of an instant, YYYY-MM-DD. */
export function mexicoCityDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: MEXICO_CITY,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

/** Midnight that starts a Mexico City day, as an instant (UTC−6 all year since 2022). */
export const mexicoCityMidnight = (day: string): Date => {
  const [y, m, d] = parts(day);
  return new Date(Date.UTC(y, m - 1, d, 6));
};

/** Adds days to a YYYY-MM-DD day. */
export const addDays = (day: string, days: number): string => {
  const [y, m, d] = parts(day);
  return iso(y, m, d + days);
};

/** The period of `periodicidad` that contains the day `day` (YYYY-MM-DD). */
export function globalPeriodOf(day: string, periodicidad: Periodicidad): GlobalPeriod {
  const [y, m, d] = parts(day);
  const nextMonth = iso(y, m + 1, 1);
  let start: string;
  let end: string;
  switch (periodicidad) {
    case '01':
      start = day;
      end = iso(y, m, d + 1);
      break;
    case '02': {
      // Weeks run Monday to Sunday, cut at the month's edges.
      const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
      start = d - weekday < 1 ? iso(y, m, 1) : iso(y, m, d - weekday);
      const nextMonday = iso(y, m, d - weekday + 7);
      end = nextMonday > nextMonth ? nextMonth : nextMonday;
      break;
    }
    case '03':
      start = d <= 15 ? iso(y, m, 1) : iso(y, m, 16);
      end = d <= 15 ? iso(y, m, 16) : nextMonth;
      break;
    case '04':
      start = iso(y, m, 1);
      end = nextMonth;
      break;
    case '05': {
      const first = m % 2 === 1 ? m : m - 1;
      start = iso(y, first, 1);
      end = iso(y, first + 2, 1);
      return { periodicidad, start, end, meses: String(13 + (first - 1) / 2), anio: y };
    }
  }
  return { periodicidad, start, end, meses: pad(m), anio: y };
}
