type Doc = PDFKit.PDFDocument;
export type Align = 'left' | 'right' | 'center';

/** The concept table's cell font: the remembered heights are valid for it only. */
export const CELL_FONT = 'Helvetica';
export const CELL_SIZE = 7;

const MAX_ENTRIES = 10_000;
const heights = new Map<string, number>();

/**
 * Height of a concept-table cell, remembered per width and text. Measuring wraps the text exactly as drawing
 * does, and product keys, units, quantities and ObjetoImp repeat across rows and documents. Cleared when full.
 */
export function cellHeight(doc: Doc, text: string, width: number): number {
  const key = `${width}\n${text}`;
  let height = heights.get(key);
  if (height === undefined) {
    if (heights.size >= MAX_ENTRIES) heights.clear();
    height = doc.font(CELL_FONT).fontSize(CELL_SIZE).heightOfString(text, { width });
    heights.set(key, height);
  }
  return height;
}

/**
 * Draws a cell's text in the cell font. Text that fits on one line (most cells: keys, quantities, amounts) is
 * placed where pdfkit's line wrapper would put it, without running the wrapper: its UAX #14 line breaking and
 * per-word measuring cost more than drawing the text.
 */
export function drawCell(doc: Doc, text: string, x: number, y: number, width: number, align: Align): void {
  const oneLine = !text.includes('\n') && cellHeight(doc, text, width) < 1.5 * doc.currentLineHeight(true);
  if (!oneLine) {
    doc.text(text, x, y, { width, align });
    return;
  }
  const free = width - doc.widthOfString(text.replace(/\s+$/, '')); // pdfkit aligns without trailing spaces
  doc.text(text, x + (align === 'right' ? free : align === 'center' ? free / 2 : 0), y, { lineBreak: false });
}
