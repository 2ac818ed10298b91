/** One RFC 4180 cell; a leading = + - @ would be a formula in a spreadsheet, so it is quote-prefixed (CSV injection). */
export function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line (with its CRLF). */
export const csvLine = (values: unknown[]): string => `${values.map(csvCell).join(',')}\r\n`;
