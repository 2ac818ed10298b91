import { brandTextOnWhite, readableTextOn } from '../look/brand-color';

type Doc = PDFKit.PDFDocument;

/** Page geometry and the small drawing helpers every section of the printed CFDI shares. */
export const MARGIN = 36;
export const WIDTH = 612 - 2 * MARGIN;
export const GRAY = '#555555';

/** The colours of section titles, their rules and table headers: grey and black, or the merchant's brand colour. */
interface Accent {
  title: string;
  rule: string;
  ruleWidth: number;
  headerFill: string;
  headerText: string;
}
const DEFAULT_ACCENT: Accent = {
  title: 'black',
  rule: '#999999',
  ruleWidth: 0.5,
  headerFill: '#e6e6e6',
  headerText: 'black',
};
/** Per document, so the section helpers (shared by the payroll and foreign-trade sections) need no extra argument. */
const accents = new WeakMap<Doc, Accent>();
const accentOf = (doc: Doc): Accent => accents.get(doc) ?? DEFAULT_ACCENT;

/**
 * Uses a brand colour (`#RRGGBB`) for the document's rules and table headers, with black or white text on the header
 * (whichever reads better), and for section titles when it reads on white (else they stay black).
 */
export function useBrandColor(doc: Doc, color: string | undefined): void {
  if (!color) return;
  accents.set(doc, {
    title: brandTextOnWhite(color) ?? 'black',
    rule: color,
    ruleWidth: 1,
    headerFill: color,
    headerText: readableTextOn(color),
  });
}

/** The accent colour of rules (the brand colour when there is one). */
export const ruleColor = (doc: Doc): string => accentOf(doc).rule;

export function ensureSpace(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN - 14) doc.addPage();
}

/** "Name: value" on one line (nothing when the value is absent). */
export function field(doc: Doc, name: string, value: string | undefined, x: number, width: number): void {
  if (value === undefined || value === '') return;
  doc
    .font('Helvetica-Bold')
    .fontSize(7)
    .fillColor(GRAY)
    .text(`${name}: `, x, doc.y, { continued: true, width })
    .font('Helvetica')
    .fillColor('black')
    .text(value);
}

/** A Domicilio node's attributes as one printed line: street and numbers, then colonia to postal code. */
export const printedAddress = (d: Record<string, string> | undefined): string =>
  d
    ? [
        [d.Calle, d.NumeroExterior, d.NumeroInterior].filter(Boolean).join(' '),
        d.Colonia,
        d.Localidad,
        d.Municipio,
        d.Estado,
        d.Pais,
        `C.P. ${d.CodigoPostal}`,
      ]
        .filter(Boolean)
        .join(', ')
    : '';

export function sectionTitle(doc: Doc, title: string): void {
  const accent = accentOf(doc);
  ensureSpace(doc, 40);
  doc
    .moveDown(0.6)
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(accent.title)
    .text(title, MARGIN, doc.y, { width: WIDTH });
  doc
    .moveTo(MARGIN, doc.y + 1)
    .lineTo(MARGIN + WIDTH, doc.y + 1)
    .strokeColor(accent.rule)
    .lineWidth(accent.ruleWidth)
    .stroke();
  doc.fillColor('black').moveDown(0.3);
}

/** Two columns of fields side by side; the cursor ends below the longer one. */
export function twoColumns(
  doc: Doc,
  left: Array<[string, string | undefined]>,
  right: Array<[string, string | undefined]>,
): void {
  const half = WIDTH / 2 - 6;
  const y = doc.y;
  for (const [name, value] of left) field(doc, name, value, MARGIN, half);
  const leftEnd = doc.y;
  doc.y = y;
  for (const [name, value] of right) field(doc, name, value, MARGIN + half + 12, half);
  doc.y = Math.max(leftEnd, doc.y);
}

/** A table column's heading: its title, width and alignment. */
export interface ColumnHeading {
  title: string;
  width: number;
  align?: 'left' | 'right' | 'center';
}

/** A table's header row across the page (grey, or the brand colour); the cursor ends just below it. */
export function tableHeader(doc: Doc, columns: ColumnHeading[]): void {
  const accent = accentOf(doc);
  const y = doc.y;
  doc.rect(MARGIN, y, WIDTH, 14).fill(accent.headerFill);
  let x = MARGIN;
  doc.fillColor(accent.headerText).font('Helvetica-Bold').fontSize(7);
  for (const column of columns) {
    doc.text(column.title, x + 2, y + 4, {
      width: column.width - 4,
      align: column.align ?? 'left',
      lineBreak: false,
    });
    x += column.width;
  }
  doc.fillColor('black');
  doc.y = y + 16;
}

/** Closes a table row drawn from `y`: a thin rule along its bottom, and the cursor below it. */
export function endTableRow(doc: Doc, y: number, height: number): void {
  doc
    .moveTo(MARGIN, y + height - 1)
    .lineTo(MARGIN + WIDTH, y + height - 1)
    .strokeColor('#dddddd')
    .lineWidth(0.3)
    .stroke();
  doc.y = y + height;
}
