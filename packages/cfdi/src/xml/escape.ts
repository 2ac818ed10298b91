/**
 * Attribute escaping. Tab, CR and LF become character references so that a parser returns
 * them unchanged (a literal newline would be normalised to a space by every XML parser).
 */
export function escapeAttr(value: string): string {
  return value.replace(/[&<>"\t\n\r]/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;',
};
