/**
 * Free text going into an attribute. Tabs and line breaks become spaces (the cadena would
 * collapse them anyway, and xmlbuilder2 writes them raw, which parsers turn into spaces).
 * Pipes are refused because they are the cadena separator; other control characters are
 * refused because XML 1.0 cannot carry them (lone surrogates cannot even be encoded in UTF-8).
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF|]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function xmlText(label: string, value: string): string {
  if (FORBIDDEN.test(value)) throw new RangeError(`${label} contains a pipe or a control character`);
  return value.replace(/[\t\n\r]/g, ' ');
}
