/**
 * XPath 1.0 normalize-space(): only U+0020, U+0009, U+000D and U+000A are whitespace.
 * JavaScript's \s and String.prototype.trim() also eat U+00A0 and other Unicode spaces,
 * which would change the cadena, so they are not used.
 */
const RUNS = /[ \t\r\n]+/g;
const EDGES = /^ | $/g;

export function normalizeSpace(value: string): string {
  return value.replace(RUNS, ' ').replace(EDGES, '');
}
