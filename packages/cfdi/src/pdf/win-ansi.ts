/**
 * pdfkit's built-in Helvetica is WinAnsi-encoded: Latin-1 plus a few typographic characters.
 * Anything else (emoji, CJK, math symbols) would print as mojibake, so it becomes "?"; the XML
 * keeps the real text.
 */
const EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

export function winAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const printable =
      ch === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || EXTRA.has(ch);
    out += printable ? ch : code === 0x09 || code === 0x0d ? ' ' : '?';
  }
  return out;
}
