import PDFDocument from 'pdfkit';
import { afmFontPrototype, installAfmCache } from '../src/pdf/afm-cache';

// These tests fail when a pdfkit upgrade changes the internals pdf/afm-cache.ts patches.
interface Afm {
  glyphWidths: object;
  kernPairs: object;
  glyphsForString(s: string): string[];
  widthOfGlyph(g: string): number;
  getKernPair(l: string, r: string): number;
}
const afm = (doc: PDFKit.PDFDocument, font: string): Afm =>
  (doc.font(font) as unknown as { _font: { font: Afm } })._font.font;

beforeAll(() => installAfmCache(PDFDocument));

it("finds pdfkit's AFM font class", () => {
  expect(() => afmFontPrototype(PDFDocument)).not.toThrow();
});

it('parses each standard font once per process, not once per document', () => {
  const [a, b] = [new PDFDocument(), new PDFDocument()];
  for (const font of ['Helvetica', 'Helvetica-Bold']) {
    expect(afm(a, font).glyphWidths).toBe(afm(b, font).glyphWidths);
    expect(afm(a, font).kernPairs).toBe(afm(b, font).kernPairs);
  }
  expect(afm(a, 'Helvetica').glyphWidths).not.toBe(afm(a, 'Helvetica-Bold').glyphWidths);
});

it("measures text exactly as pdfkit's own pair-by-pair kerning lookup", () => {
  const doc = new PDFDocument();
  for (const font of ['Helvetica', 'Helvetica-Bold']) {
    const metrics = afm(doc, font);
    for (const text of [
      'AVATAR WAVE To Yo',
      'Régimen fiscal: 601 - General de Ley',
      'LT"Fw".',
      'ñandú €‚ƒ„ «»',
      '',
    ]) {
      const glyphs = metrics.glyphsForString(text);
      const expected =
        (glyphs.reduce(
          (sum, g, i) => sum + metrics.widthOfGlyph(g) + metrics.getKernPair(g, glyphs[i + 1]!),
          0,
        ) *
          7) /
        1000;
      expect(doc.fontSize(7).widthOfString(text)).toBeCloseTo(expected, 10);
    }
  }
  // Kerning is applied: "AV" is narrower than "A" + "V".
  expect(doc.font('Helvetica').widthOfString('AV')).toBeLessThan(
    doc.widthOfString('A') + doc.widthOfString('V'),
  );
});
