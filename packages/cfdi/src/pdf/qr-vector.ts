import type QRCode from 'qrcode';
import type PDFDocument from 'pdfkit';

/** pdfkit's own number format in content streams (at most six decimals). */
const num = (n: number): number => Math.round(n * 1e6) / 1e6;

/**
 * Draws a QR code as vector squares (error correction M, one-module quiet zone). Sharper than a bitmap and about
 * a third of the rendering cost: no PNG to encode, compress and decode again inside the PDF. Each horizontal run
 * of dark modules is one rectangle, and all of them go to the page in one write: a `doc.rect()` per module cost
 * more than building the symbol.
 */
export function drawQrCode(
  doc: InstanceType<typeof PDFDocument>,
  text: string,
  x: number,
  y: number,
  size: number,
): void {
  // Required here, not at load: only rendering a PDF needs it (see pdfkit.ts).
  const { modules } = (require('qrcode') as typeof QRCode).create(text, { errorCorrectionLevel: 'M' });
  const quiet = 1;
  const cell = size / (modules.size + 2 * quiet);
  const rects: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const start = col;
      while (col + 1 < modules.size && modules.get(row, col + 1)) col++;
      rects.push(
        `${num(x + (start + quiet) * cell)} ${num(y + (row + quiet) * cell)} ${num((col - start + 1) * cell)} ${num(cell)} re`,
      );
    }
  }
  doc.save().rect(x, y, size, size).fill('#ffffff');
  // Colour before the path: PDF allows no colour operator between path construction and painting.
  doc.fillColor('#000000').addContent(rects.join('\n')).fill().restore();
}
