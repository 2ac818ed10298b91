type Doc = PDFKit.PDFDocument;

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
