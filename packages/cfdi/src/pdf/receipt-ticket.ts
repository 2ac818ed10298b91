import { pdfkit } from './pdfkit';
import { drawQrCode } from './qr-vector';

/** What a receipt's ticket prints: the shop, the sale, and how to invoice it. */
export interface TicketView {
  merchantName: string;
  merchantRfc: string;
  branch: string | null;
  /** The sale's date and time as the shop's customers read it (Mexico City). */
  soldAt: string;
  lines: { description: string; quantity: string; amount: string }[];
  total: string;
  formaPago: string;
  /** The key in groups of four, as the customer types it. */
  key: string;
  selfInvoiceUrl: string;
  /** The last day the customer may invoice it, as a date. */
  expiresOn: string;
}

/** 42 columns: Font A of an 80 mm thermal printer (576 dots / 12 dots per character, rounded down). */
export const TICKET_COLUMNS = 42;

const fit = (text: string, width: number) => (text.length > width ? text.slice(0, width) : text);
const row = (left: string, right: string, width: number) =>
  `${fit(left, width - right.length - 1).padEnd(width - right.length)}${right}`;
const centred = (text: string, width: number) => {
  const t = fit(text, width);
  return ' '.repeat(Math.floor((width - t.length) / 2)) + t;
};

/** The ticket as plain text for thermal printers: fixed columns, one line per item, the key and the portal URL. */
export function ticketText(view: TicketView, width = TICKET_COLUMNS): string {
  const rule = '-'.repeat(width);
  return [
    centred(view.merchantName, width),
    centred(`RFC ${view.merchantRfc}`, width),
    ...(view.branch ? [centred(view.branch, width)] : []),
    centred(view.soldAt, width),
    rule,
    ...view.lines.map((l) => row(`${l.quantity} ${l.description}`, `$${l.amount}`, width)),
    rule,
    row('TOTAL', `$${view.total}`, width),
    row('Forma de pago', view.formaPago, width),
    rule,
    centred('¿Necesitas factura? Entra a', width),
    view.selfInvoiceUrl,
    centred('o escribe esta clave en el portal:', width),
    centred(view.key, width),
    centred('Puedes facturarlo hasta el', width),
    centred(view.expiresOn, width),
    '',
  ].join('\n');
}

// 80 mm paper: 226.77 pt wide; the printable width of an 80 mm printer is 72 mm.
const WIDTH = 226.77;
const MARGIN = 12;
const QR = 120;

/** The ticket as an 80 mm wide PDF, as tall as its lines, with a QR code to the portal page of the receipt. */
export function renderTicketPdf(view: TicketView): Promise<Buffer> {
  const text = ticketText(view, 40);
  const lineHeight = 10;
  const height = MARGIN * 2 + text.split('\n').length * lineHeight + QR + 20;
  const PDFDocument = pdfkit();
  const doc = new PDFDocument({
    size: [WIDTH, height],
    margin: MARGIN,
    info: { Title: `Ticket ${view.key}`, Creator: '@cfdi/cfdi' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  // One line per text line at fixed positions: pdfkit's flow would wrap or collapse a thermal ticket's columns.
  doc.font('Courier').fontSize(7.8);
  const lines = text.split('\n');
  lines.forEach((line, i) => doc.text(line, MARGIN, MARGIN + i * lineHeight, { lineBreak: false }));
  drawQrCode(doc, view.selfInvoiceUrl, (WIDTH - QR) / 2, MARGIN + lines.length * lineHeight + 6, QR);
  doc.end();
  return done;
}
