import {
  brandTextOnWhite,
  contrastRatio,
  isBrandColor,
  normalizePdfNote,
  pdfNoteProblem,
  readableTextOn,
  relativeLuminance,
} from './brand-color';

test('colours are #RRGGBB only', () => {
  expect(isBrandColor('#1a2B3c')).toBe(true);
  for (const bad of ['1a2b3c', '#abc', '#1a2b3cff', '#gggggg', 'red', ' #1a2b3c', '#1a2b3c\n']) {
    expect(isBrandColor(bad)).toBe(false);
  }
});

test('luminance and contrast follow WCAG 2.x', () => {
  expect(relativeLuminance('#000000')).toBe(0);
  expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
  expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2); // the classic "just fails AA" grey
});

test('the text on a brand colour is black or white, whichever reads better, and always reaches 4.5:1', () => {
  expect(readableTextOn('#ffff00')).toBe('#000000'); // yellow
  expect(readableTextOn('#ffffff')).toBe('#000000');
  expect(readableTextOn('#003366')).toBe('#ffffff'); // navy
  expect(readableTextOn('#000000')).toBe('#ffffff');
  expect(readableTextOn('#e60000')).toBe('#ffffff');
  // Every grey level, and a sweep of hues: the chosen text always passes AA.
  for (let v = 0; v < 256; v += 5) {
    const hex = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
    expect(contrastRatio(hex, readableTextOn(hex))).toBeGreaterThanOrEqual(4.5);
  }
  for (const hex of ['#ff0000', '#00ff00', '#0000ff', '#ff8800', '#00aaff', '#8844ff', '#0d9488']) {
    expect(contrastRatio(hex, readableTextOn(hex))).toBeGreaterThanOrEqual(4.5);
  }
});

test('the brand colour is used as text on white only when it reads there', () => {
  expect(brandTextOnWhite('#003366')).toBe('#003366');
  expect(brandTextOnWhite('#0D47A1')).toBe('#0d47a1');
  expect(brandTextOnWhite('#ffff00')).toBeNull();
  expect(brandTextOnWhite('#777777')).toBeNull();
});

test('a note is bounded in characters and lines, without control characters', () => {
  expect(pdfNoteProblem('Banco: BBVA\nCLABE 012180001234567891\n¡Gracias por su compra!')).toBeUndefined();
  expect(pdfNoteProblem('<b>&amp;</b> ]]> "\' | ${x}')).toBeUndefined();
  expect(pdfNoteProblem('x'.repeat(500))).toBeUndefined();
  expect(pdfNoteProblem('x'.repeat(501))).toBe('is 501 characters; the limit is 500');
  expect(pdfNoteProblem('1\n2\n3\n4\n5\n6')).toBeUndefined();
  expect(pdfNoteProblem('1\n2\n3\n4\n5\n6\n7')).toBe('has 7 lines; the limit is 6');
  expect(pdfNoteProblem('bell\u0007')).toBe('must not contain control characters');
});

test('a note is stored with \\n line breaks, no tabs, no trailing spaces; blank is no note', () => {
  expect(normalizePdfNote('  Línea 1\t\r\nLínea 2  \rLínea 3\n\n')).toBe('Línea 1\nLínea 2\nLínea 3');
  expect(normalizePdfNote(' \n\t ')).toBeNull();
  expect(normalizePdfNote('a\tb')).toBe('a b');
});
