/** Fiscal dates (Fecha, month boundaries of usage and caps) follow Mexico City wall-clock time. */
export const MEXICO_CITY = 'America/Mexico_City';

/**
 * API timestamps: ISO 8601 UTC with milliseconds. Raw queries return timestamptz as text
 * ("2026-11-21 14:55:01.123+00"), entities as Date; both end up the same.
 */
export function isoTimestamp(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  const normalised = value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00');
  return new Date(normalised).toISOString();
}

export function isoTimestampOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoTimestamp(value);
}
