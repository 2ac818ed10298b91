/**
 * CFDI Fecha: wall-clock time at the place of issue, "YYYY-MM-DDThh:mm:ss", no zone suffix
 * (CFDI40101). "now" is always passed in so builders are deterministic and testable.
 */
export const DEFAULT_TIME_ZONE = 'America/Mexico_City';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function formatFecha(now: Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The calendar year and month (1–12) at `now` at the place of issue. */
export function yearMonthAt(now: Date, timeZone: string = DEFAULT_TIME_ZONE): [number, number] {
  const fecha = formatFecha(now, timeZone);
  return [Number(fecha.slice(0, 4)), Number(fecha.slice(5, 7))];
}
