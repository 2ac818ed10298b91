import { formatFecha } from '@cfdi/cfdi';

const HOUR_MS = 3_600_000;

/**
 * Mexico City's UTC offset in ms, memoised per UTC hour: Intl costs ~50 µs a call and a stamp needs
 * several, while the offset only ever changes on a UTC hour (whole-hour offsets, changes at 02:00).
 */
const offsets = new Map<number, number>();

function offsetAt(ms: number): number {
  const hour = Math.floor(ms / HOUR_MS) * HOUR_MS;
  let offset = offsets.get(hour);
  if (offset === undefined) {
    offset = wallClockMs(formatFecha(new Date(hour))) - hour;
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return offset;
}

/** AAAA-MM-DDThh:mm:ss in Mexico City wall-clock time: the format of Fecha and FechaTimbrado. */
export function mexicoLocal(instant: Date): string {
  const ms = instant.getTime();
  return new Date(ms + offsetAt(ms)).toISOString().slice(0, 19);
}

export const FECHA_PATTERN =
  /^20[1-9][0-9]-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

/** Milliseconds of a wall-clock string read as if it were UTC: lets two local times be subtracted. */
export function wallClockMs(local: string): number {
  return Date.parse(`${local}Z`);
}

/**
 * The instant a Mexico City wall-clock time denotes. The offset is taken at that instant (Mexico
 * City has had no DST since 2022; the second pass corrects historic dates near a transition).
 */
export function mexicoInstant(local: string): Date {
  const guess = wallClockMs(local);
  const offset = (t: number) => wallClockMs(mexicoLocal(new Date(t))) - t;
  const first = guess - offset(guess);
  return new Date(guess - offset(first));
}
