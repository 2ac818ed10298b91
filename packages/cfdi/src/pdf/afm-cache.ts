import type PDFDocument from 'pdfkit';

/** The parts of pdfkit's internal AFMFont (Helvetica & co. metrics) that are patched here. */
interface AfmFont {
  attributes: Record<string, unknown>;
  glyphWidths: Record<string, number>;
  boundingBoxes: Record<string, unknown>;
  kernPairs: Record<string, number>;
  parse(contents: string): void;
  widthOfGlyph(glyph: string): number;
  advancesForGlyphs(glyphs: string[]): number[];
}

type Metrics = Pick<AfmFont, 'attributes' | 'glyphWidths' | 'boundingBoxes' | 'kernPairs'>;

/** kernPairs ("A\0V" → -70) as left → right → value: no string is built per glyph pair. */
const kernTables = new WeakMap<Metrics['kernPairs'], Map<string, Map<string, number>>>();

function kernTable(pairs: Metrics['kernPairs']): Map<string, Map<string, number>> {
  let table = kernTables.get(pairs);
  if (table) return table;
  table = new Map();
  for (const [key, value] of Object.entries(pairs)) {
    const [left, right] = key.split('\0') as [string, string];
    if (!table.has(left)) table.set(left, new Map());
    table.get(left)!.set(right, value);
  }
  kernTables.set(pairs, table);
  return table;
}

/** The AFMFont class, reached through the default font of a document (pdfkit does not export it). */
export function afmFontPrototype(pdfkit: typeof PDFDocument): AfmFont {
  const font = (new pdfkit({ autoFirstPage: false }) as unknown as { _font?: { font?: AfmFont } })._font
    ?.font;
  const proto = font && (Object.getPrototypeOf(font) as AfmFont);
  if (
    typeof proto?.parse !== 'function' ||
    typeof proto.advancesForGlyphs !== 'function' ||
    !font?.kernPairs
  ) {
    throw new Error('pdfkit internals changed: AFMFont not found; review pdf/afm-cache.ts');
  }
  return proto;
}

let installed = false;

/**
 * pdfkit re-reads and re-parses the standard fonts' .afm files (~2,700 kerning lines each) for every document,
 * and measures text by building an "A\0V" string per glyph pair. Both dominate PDF rendering, and pdfkit has no
 * option to share fonts between documents, so this patches its AFMFont once per process: `parse` keeps the
 * parsed tables per file content (they are never modified after parsing), and `advancesForGlyphs` looks the
 * kerning up in nested maps. Same numbers as pdfkit's own code (test/pdf-fonts.test.ts checks both).
 */
export function installAfmCache(pdfkit: typeof PDFDocument): void {
  if (installed) return;
  installed = true;
  const proto = afmFontPrototype(pdfkit);
  const parse = proto.parse;
  const parsed = new Map<string, Metrics>();
  proto.parse = function (this: AfmFont, contents: string) {
    const cached = parsed.get(contents);
    if (cached) {
      Object.assign(this, cached);
      return;
    }
    parse.call(this, contents);
    parsed.set(contents, {
      attributes: this.attributes,
      glyphWidths: this.glyphWidths,
      boundingBoxes: this.boundingBoxes,
      kernPairs: this.kernPairs,
    });
  };
  proto.advancesForGlyphs = function (this: AfmFont, glyphs: string[]) {
    const kern = kernTable(this.kernPairs);
    const advances = new Array<number>(glyphs.length);
    for (let i = 0; i < glyphs.length; i++) {
      const left = glyphs[i]!;
      advances[i] = this.widthOfGlyph(left) + (kern.get(left)?.get(glyphs[i + 1]!) ?? 0);
    }
    return advances;
  };
}
