/**
 * A merchant's "PDF look": its brand colour and the note printed at the foot of its PDFs. The rules are pure so the
 * API (validation), the PDF (accent and readable text on it) and the portal (CSS) apply the same ones.
 */

/** `#RRGGBB`, six hex digits; stored lowercase. */
export const BRAND_COLOR_PATTERN = '^#[0-9A-Fa-f]{6}$';
const BRAND_COLOR = new RegExp(BRAND_COLOR_PATTERN);
/** The note: at most this many characters and lines (it must fit the foot of a page beside the legend). */
export const PDF_NOTE_MAX_CHARS = 500;
export const PDF_NOTE_MAX_LINES = 6;

export const isBrandColor = (value: string): boolean => BRAND_COLOR.test(value);

/** WCAG 2.x relative luminance of an sRGB `#RRGGBB` colour (0 black … 1 white). */
export function relativeLuminance(hex: string): number {
  if (!isBrandColor(hex)) throw new Error(`not a #RRGGBB colour: ${hex}`);
  const channel = (offset: number) => {
    const c = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two colours (1 … 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Text on the brand colour: black or white, whichever contrasts more (WCAG luminance). One of the two always
 * reaches 4.5:1 (the worst case, a mid grey of luminance ≈ 0.18, still gives about 4.6:1 with black).
 */
export function readableTextOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}

/**
 * The brand colour as text on white (headings, links), or null when it is too light to read there (under 4.5:1,
 * WCAG AA for normal text): then the text stays black and the colour is used only where text sits on it.
 */
export function brandTextOnWhite(color: string): string | null {
  return contrastRatio(color, '#ffffff') >= 4.5 ? color.toLowerCase() : null;
}

/** What is wrong with a note (for a 400 on its field), or undefined when it prints. */
export function pdfNoteProblem(note: string): string | undefined {
  if (note.length > PDF_NOTE_MAX_CHARS)
    return `is ${note.length} characters; the limit is ${PDF_NOTE_MAX_CHARS}`;
  const lines = note.split('\n').length;
  if (lines > PDF_NOTE_MAX_LINES) return `has ${lines} lines; the limit is ${PDF_NOTE_MAX_LINES}`;
  // Control characters would print as nothing or garble the page; tabs become spaces, line breaks are lines.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(note)) return 'must not contain control characters';
  return undefined;
}

/** The note as stored: line breaks normalised to \n, tabs to spaces, trailing spaces trimmed; empty is no note. */
export function normalizePdfNote(note: string): string | null {
  const text = note
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trim();
  return text === '' ? null : text;
}
