import { amountInWords } from './amount-in-words';
import { FORMAS, IMPUESTOS, label, METODOS, REGIMENES, RELACIONES, TIPOS } from './catalog-names';
import { CELL_FONT, CELL_SIZE, cellHeight, drawCell } from './table-cell';
import { readCfdi, type CfdiView } from './cfdi-view';
import { drawQrCode } from './qr-vector';
import {
  endTableRow,
  ensureSpace,
  field,
  GRAY,
  MARGIN,
  ruleColor,
  sectionTitle,
  tableHeader,
  useBrandColor,
  WIDTH,
} from './layout';
import { nominaSections } from './nomina-sections';
import { comercioExteriorSection } from './comercio-exterior-section';
import { cartaPorteSection } from './carta-porte-section';
import { pdfkit } from './pdfkit';
import { winAnsi } from './win-ansi';

/** How a merchant's PDFs look (its "PDF look" settings); every part is optional. */
export interface PdfLook {
  /** Merchant logo, PNG or JPEG; without it (or with another format) the header shows the legal name. */
  logo?: Buffer;
  /** `#RRGGBB`: section titles (when readable on white), their rules and the table headers; default grey. */
  brandColor?: string;
  /** Printed as typed at the foot of the document, after the seals (bank details, a thank-you line). */
  note?: string;
}

export interface RenderPdfOptions extends PdfLook {
  /**
   * A draft's preview from its unsealed Comprobante: the same layout, marked "SIN VALIDEZ FISCAL" on every page,
   * without UUID, QR, seals or the TFD (there are none).
   */
  preview?: boolean;
  /** The file's creation date (now by default); with it, the same XML and look always give the same bytes. */
  createdAt?: Date;
}

type Doc = PDFKit.PDFDocument;

const LEGEND = 'Este documento es una representación impresa de un CFDI';
export const PREVIEW_MARK = 'SIN VALIDEZ FISCAL';
const PREVIEW_LEGEND = `Vista previa de un borrador: no es un CFDI - ${PREVIEW_MARK}`;
const COLS = [
  { key: 'ClaveProdServ', title: 'Clave', width: 48 },
  { key: 'Cantidad', title: 'Cant.', width: 38, align: 'right' as const },
  { key: 'unidad', title: 'Unidad', width: 46 },
  { key: 'Descripcion', title: 'Descripción', width: 204 },
  { key: 'ValorUnitario', title: 'Valor unit.', width: 62, align: 'right' as const },
  { key: 'Descuento', title: 'Descuento', width: 52, align: 'right' as const },
  { key: 'Importe', title: 'Importe', width: 62, align: 'right' as const },
  { key: 'ObjetoImp', title: 'Obj.', width: 28, align: 'center' as const },
];

/** A traslado's goods have no price: their columns are the goods themselves (ValorUnitario and Importe are 0). */
const TRASLADO_COLS = [
  { key: 'ClaveProdServ', title: 'Clave', width: 48 },
  { key: 'Cantidad', title: 'Cant.', width: 50, align: 'right' as const },
  { key: 'unidad', title: 'Unidad', width: 70 },
  { key: 'Descripcion', title: 'Descripción', width: 344 },
  { key: 'ObjetoImp', title: 'Obj.', width: 28, align: 'center' as const },
];
type Columns = typeof COLS | typeof TRASLADO_COLS;

/**
 * Printed representation of a stamped CFDI (RMF 2.7.1.7, cfdi40.md §9): QR, serial numbers,
 * dates, every fiscal datum, seals and the TFD cadena. Long documents paginate with the
 * concept table header repeated on every page.
 */
export async function renderPdf(stampedXml: string, options: RenderPdfOptions = {}): Promise<Buffer> {
  const view = readCfdi(stampedXml, { unstamped: options.preview });
  const PDFDocument = pdfkit();
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: view.stamp ? `CFDI ${view.stamp.tfd.uuid}` : PREVIEW_LEGEND,
      Creator: '@cfdi/cfdi',
      ...(options.createdAt ? { CreationDate: options.createdAt } : {}),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  useBrandColor(doc, options.brandColor);
  header(doc, view, options.logo);
  parties(doc, view);
  if (view.nomina) nominaSections(doc, view.nomina, view.comprobante);
  else {
    const tipo = view.comprobante.TipoDeComprobante;
    conceptTable(doc, view, tipo === 'T' ? TRASLADO_COLS : COLS);
    if (tipo === 'P') paymentsSection(doc, view);
    else if (tipo === 'T') trasladoNotice(doc);
    else totalsSection(doc, view);
    if (view.comercioExterior) comercioExteriorSection(doc, view.comercioExterior);
    if (view.cartaPorte) cartaPorteSection(doc, view.cartaPorte);
  }
  if (view.stamp) sealsSection(doc, view.stamp);
  else previewNotice(doc);
  if (options.note) noteSection(doc, options.note);
  pageNumbers(doc, view.stamp ? LEGEND : PREVIEW_LEGEND);
  doc.end();
  return done;
}

const isPng = (b: Buffer): boolean =>
  b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const isJpeg = (b: Buffer): boolean => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

/** pdfkit embeds PNG and JPEG only; other logos (e.g. WebP uploads) or broken files fall back to the name. */
function drawLogo(doc: Doc, logo: Buffer | undefined, top: number): boolean {
  if (!logo || !(isPng(logo) || isJpeg(logo))) return false;
  try {
    doc.image(logo, MARGIN, top, { fit: [170, 60] });
    return true;
  } catch {
    return false;
  }
}

function header(doc: Doc, v: CfdiView, logo: Buffer | undefined): void {
  const top = MARGIN;
  if (!drawLogo(doc, logo, top))
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .text(v.emisor.Nombre ?? '', MARGIN, top, { width: 250 });
  const x = MARGIN + 290;
  const w = WIDTH - 290;
  const c = v.comprobante;
  doc
    .font('Helvetica-Bold')
    .fontSize(12)
    .text(TIPOS[c.TipoDeComprobante ?? ''] ?? 'CFDI', x, top, { width: w, align: 'right' });
  if (c.Serie !== undefined || c.Folio !== undefined)
    doc.fontSize(10).text(`${c.Serie ?? ''}${c.Serie && c.Folio ? '-' : ''}${c.Folio ?? ''}`, x, doc.y, {
      width: w,
      align: 'right',
    });
  doc.moveDown(0.3);
  const tfd = v.stamp?.tfd;
  if (!tfd)
    doc
      .font('Helvetica-Bold')
      .fontSize(10)
      .fillColor('#b00000')
      .text(PREVIEW_MARK, x, doc.y, { width: w, align: 'right' })
      .fillColor('black');
  field(doc, 'Folio fiscal (UUID)', tfd?.uuid, x, w);
  field(doc, 'Fecha de emisión', c.Fecha, x, w);
  field(doc, 'Fecha de certificación', tfd?.fechaTimbrado, x, w);
  field(doc, 'No. certificado del emisor', c.NoCertificado, x, w);
  field(doc, 'No. certificado del SAT', tfd?.noCertificadoSAT, x, w);
  field(doc, 'RFC del proveedor de certificación', tfd?.rfcProvCertif, x, w);
  field(doc, 'Lugar de expedición', c.LugarExpedicion, x, w);
  doc.y = Math.max(doc.y, top + 70);
}

function parties(doc: Doc, v: CfdiView): void {
  const half = WIDTH / 2 - 6;
  sectionTitle(doc, 'Emisor y receptor');
  const y = doc.y;
  field(doc, 'RFC emisor', v.emisor.Rfc, MARGIN, half);
  field(doc, 'Nombre', v.emisor.Nombre, MARGIN, half);
  field(doc, 'Régimen fiscal', label(REGIMENES, v.emisor.RegimenFiscal), MARGIN, half);
  const leftEnd = doc.y;
  doc.y = y;
  const x = MARGIN + half + 12;
  field(doc, 'RFC receptor', v.receptor.Rfc, x, half);
  field(doc, 'Nombre', v.receptor.Nombre, x, half);
  field(doc, 'Domicilio fiscal', v.receptor.DomicilioFiscalReceptor, x, half);
  field(doc, 'Residencia fiscal', v.receptor.ResidenciaFiscal, x, half);
  field(doc, 'Registro de identidad tributaria', v.receptor.NumRegIdTrib, x, half);
  field(doc, 'Régimen fiscal', label(REGIMENES, v.receptor.RegimenFiscalReceptor), x, half);
  field(doc, 'Uso CFDI', v.receptor.UsoCFDI, x, half);
  doc.y = Math.max(leftEnd, doc.y);
  const c = v.comprobante;
  sectionTitle(doc, 'Datos del comprobante');
  const y2 = doc.y;
  field(doc, 'Tipo de comprobante', label(TIPOS, c.TipoDeComprobante), MARGIN, half);
  field(doc, 'Exportación', c.Exportacion, MARGIN, half);
  field(doc, 'Moneda', c.Moneda, MARGIN, half);
  field(doc, 'Tipo de cambio', c.TipoCambio, MARGIN, half);
  const leftEnd2 = doc.y;
  doc.y = y2;
  field(doc, 'Método de pago', label(METODOS, c.MetodoPago), x, half);
  field(doc, 'Forma de pago', label(FORMAS, c.FormaPago), x, half);
  field(doc, 'Condiciones de pago', c.CondicionesDePago, x, half);
  if (v.informacionGlobal) {
    const g = v.informacionGlobal;
    field(
      doc,
      'Información global',
      `Periodicidad ${g.Periodicidad}, meses ${g.Meses}, año ${g['Año']}`,
      x,
      half,
    );
  }
  doc.y = Math.max(leftEnd2, doc.y);
  for (const r of v.relacionados)
    field(doc, `CFDI relacionados (${label(RELACIONES, r.tipoRelacion)})`, r.uuids.join(', '), MARGIN, WIDTH);
}

function taxLine(t: Record<string, string>): string {
  const name = IMPUESTOS[t.Impuesto ?? ''] ?? t.Impuesto;
  return t.TipoFactor === 'Exento'
    ? `${name} Exento, base ${t.Base}`
    : `${name} ${t.TipoFactor} ${t.TasaOCuota}, base ${t.Base}, importe ${t.Importe}`;
}

function conceptDetail(c: CfdiView['conceptos'][number]): string {
  const lines = [c.attrs.Descripcion ?? ''];
  if (c.attrs.NoIdentificacion) lines.push(`No. identificación: ${c.attrs.NoIdentificacion}`);
  if (c.pedimentos.length) lines.push(`Pedimentos: ${c.pedimentos.join(', ')}`);
  if (c.taxes.length) lines.push(`Impuestos: ${c.taxes.map(taxLine).join('; ')}`);
  return lines.join('\n');
}

function conceptTable(doc: Doc, v: CfdiView, columns: Columns): void {
  sectionTitle(doc, v.comprobante.TipoDeComprobante === 'T' ? 'Mercancías trasladadas' : 'Conceptos');
  tableHeader(doc, columns);
  doc.font(CELL_FONT).fontSize(CELL_SIZE);
  let fill: string | undefined; // pdfkit writes a colour operator per call, even for the colour in effect
  for (const c of v.conceptos) {
    const cells: Record<string, string> = {
      ...c.attrs,
      unidad: c.attrs.Unidad ? `${c.attrs.ClaveUnidad} ${c.attrs.Unidad}` : (c.attrs.ClaveUnidad ?? ''),
      Descripcion: conceptDetail(c),
    };
    const height =
      Math.max(
        ...columns.map((col) => (cells[col.key] ? cellHeight(doc, cells[col.key]!, col.width - 4) : 0)),
      ) + 4;
    if (doc.y + height > doc.page.height - MARGIN - 14) {
      doc.addPage();
      tableHeader(doc, columns);
      doc.font(CELL_FONT).fontSize(CELL_SIZE);
      fill = undefined;
    }
    const y = doc.y;
    let x = MARGIN;
    for (const col of columns) {
      const text = cells[col.key];
      if (text) {
        const color = col.key === 'Descripcion' ? 'black' : '#222222';
        if (color !== fill) doc.fillColor((fill = color));
        drawCell(doc, text, x + 2, y, col.width - 4, col.align ?? 'left');
      }
      x += col.width;
    }
    endTableRow(doc, y, height);
  }
}

function totalsSection(doc: Doc, v: CfdiView): void {
  const c = v.comprobante;
  const rows: Array<[string, string]> = [['Subtotal', c.SubTotal ?? '']];
  if (c.Descuento !== undefined) rows.push(['Descuento', c.Descuento]);
  for (const t of v.traslados) {
    const name = IMPUESTOS[t.Impuesto ?? ''] ?? t.Impuesto;
    rows.push(
      t.TipoFactor === 'Exento'
        ? [`${name} exento (base ${t.Base})`, '-']
        : [`${name} trasladado ${t.TasaOCuota} (base ${t.Base})`, t.Importe ?? ''],
    );
  }
  for (const r of v.retenciones)
    rows.push([`${IMPUESTOS[r.Impuesto ?? ''] ?? r.Impuesto} retenido`, r.Importe ?? '']);
  rows.push(['Total', c.Total ?? '']);
  ensureSpace(doc, rows.length * 11 + 30);
  doc.moveDown(0.5);
  for (const [name, value] of rows) {
    const y = doc.y;
    const bold = name === 'Total';
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 9 : 8)
      .fillColor('black');
    doc.text(name, MARGIN + 250, y, { width: 200, align: 'right' });
    doc.text(value === '-' ? value : `$${value}`, MARGIN + 455, y, { width: 85, align: 'right' });
  }
  doc
    .moveDown(0.3)
    .font('Helvetica-Bold')
    .fontSize(8)
    .text(`Importe con letra: ${amountInWords(c.Total ?? '0')}`, MARGIN, doc.y, { width: WIDTH });
  if (v.traslados.some(isBorderRate))
    doc.moveDown(0.2).font('Helvetica').fontSize(8).text(BORDER_LEGEND, MARGIN, doc.y, { width: WIDTH });
}

/** Where another CFDI shows its totals, a traslado says why it has none. */
function trasladoNotice(doc: Doc): void {
  ensureSpace(doc, 30);
  doc
    .moveDown(0.5)
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor('black')
    .text(
      'CFDI de traslado: ampara la posesión y el transporte de mercancías propias; no tiene valor, pago ni impuestos (Moneda XXX, total 0).',
      MARGIN,
      doc.y,
      { width: WIDTH },
    );
}

/** IVA at 8 %: the border-region stimulus rate, "IVA crédito aplicado del 50%" in c_TasaOCuota (docs/decisions.md). */
const isBorderRate = (t: Record<string, string>): boolean =>
  t.Impuesto === '002' && t.TipoFactor === 'Tasa' && t.TasaOCuota === '0.080000';
const BORDER_LEGEND =
  'IVA crédito aplicado del 50%: estímulo fiscal de la región fronteriza (Decreto de estímulos fiscales región fronteriza norte y sur), tasa del 8%.';

function paymentsSection(doc: Doc, v: CfdiView): void {
  sectionTitle(doc, 'Complemento para recepción de pagos');
  for (const { pago, taxes, doctos } of v.pagos) {
    field(doc, 'Fecha de pago', pago.FechaPago, MARGIN, WIDTH);
    field(doc, 'Forma de pago', label(FORMAS, pago.FormaDePagoP), MARGIN, WIDTH);
    field(
      doc,
      'Monto',
      `$${pago.Monto} ${pago.MonedaP}${pago.TipoCambioP ? ` (tipo de cambio ${pago.TipoCambioP})` : ''}`,
      MARGIN,
      WIDTH,
    );
    field(doc, 'Número de operación', pago.NumOperacion, MARGIN, WIDTH);
    for (const { attrs: d, taxes: docTaxes } of doctos) {
      ensureSpace(doc, 40);
      doc.moveDown(0.2);
      field(
        doc,
        'Documento relacionado',
        `${d.IdDocumento}${d.Serie || d.Folio ? ` (${d.Serie ?? ''}${d.Folio ? `-${d.Folio}` : ''})` : ''}`,
        MARGIN + 10,
        WIDTH - 10,
      );
      field(
        doc,
        'Parcialidad',
        // The balances are in the invoice's currency (MonedaDR), which may differ from the payment's.
        `${d.NumParcialidad}; saldo anterior $${d.ImpSaldoAnt} ${d.MonedaDR ?? ''}; importe pagado $${d.ImpPagado} ${d.MonedaDR ?? ''}; saldo insoluto $${d.ImpSaldoInsoluto} ${d.MonedaDR ?? ''}${d.EquivalenciaDR && d.EquivalenciaDR !== '1' ? `; equivalencia ${d.EquivalenciaDR} ${d.MonedaDR ?? ''} por ${pago.MonedaP}` : ''}; objeto de impuesto ${d.ObjetoImpDR}`,
        MARGIN + 10,
        WIDTH - 10,
      );
      if (docTaxes.length)
        field(
          doc,
          'Impuestos del documento',
          docTaxes.map((t) => paymentTaxText(t, 'DR')).join('; '),
          MARGIN + 10,
          WIDTH - 10,
        );
    }
    if (taxes.length)
      field(doc, 'Impuestos del pago', taxes.map((t) => paymentTaxText(t, 'P')).join('; '), MARGIN, WIDTH);
    if (pago.Monto)
      doc
        .font('Helvetica-Bold')
        .fontSize(8)
        .text(`Monto con letra: ${amountInWords(pago.Monto)}`, MARGIN, doc.y, { width: WIDTH });
  }
  const totales = Object.entries(v.pagosTotales ?? {});
  if (totales.length)
    field(
      doc,
      'Totales',
      totales.map(([name, value]) => `${TOTALES[name] ?? name} $${value}`).join('; '),
      MARGIN,
      WIDTH,
    );
}

/** Names of Pagos 2.0 Totales attributes as printed. */
const TOTALES: Record<string, string> = {
  TotalRetencionesIVA: 'IVA retenido',
  TotalRetencionesISR: 'ISR retenido',
  TotalRetencionesIEPS: 'IEPS retenido',
  TotalTrasladosBaseIVA16: 'base IVA 16%',
  TotalTrasladosImpuestoIVA16: 'IVA 16%',
  TotalTrasladosBaseIVA8: 'base IVA 8%',
  TotalTrasladosImpuestoIVA8: 'IVA 8%',
  TotalTrasladosBaseIVA0: 'base IVA 0%',
  TotalTrasladosImpuestoIVA0: 'IVA 0%',
  TotalTrasladosBaseIVAExento: 'base IVA exento',
  MontoTotalPagos: 'monto total de pagos',
};

/** One TrasladoP/DR or RetencionP/DR line: "IVA trasladado 0.160000 base $431.03: $68.96" (attributes end in P or DR). */
function paymentTaxText(t: Record<string, string>, suffix: 'P' | 'DR'): string {
  const name = IMPUESTOS[t[`Impuesto${suffix}`] ?? ''] ?? t[`Impuesto${suffix}`];
  const base = t[`Base${suffix}`];
  if (base === undefined) return `${name} retenido $${t[`Importe${suffix}`]}`;
  if (t[`TipoFactor${suffix}`] === 'Exento') return `${name} exento base $${base}`;
  return `${name} trasladado ${t[`TasaOCuota${suffix}`]} base $${base}: $${t[`Importe${suffix}`]}`;
}

function sealsSection(doc: Doc, v: NonNullable<CfdiView['stamp']>): void {
  ensureSpace(doc, 260);
  sectionTitle(doc, 'Timbre fiscal digital');
  const y = doc.y;
  drawQrCode(doc, v.qrUrl, MARGIN, y, 100);
  const x = MARGIN + 110;
  const w = WIDTH - 110;
  doc.y = y;
  for (const [name, value] of [
    ['Sello digital del CFDI', v.tfd.selloCFD],
    ['Sello digital del SAT', v.tfd.selloSAT],
    ['Cadena original del complemento de certificación digital del SAT', v.tfdCadena],
  ] as const) {
    doc.font('Helvetica-Bold').fontSize(7).fillColor('black').text(name, x, doc.y, { width: w });
    doc.font('Helvetica').fontSize(6).text(value, x, doc.y, { width: w });
    doc.moveDown(0.3);
  }
  doc.y = Math.max(doc.y, y + 106);
  doc.font('Helvetica-Bold').fontSize(8).text(LEGEND, MARGIN, doc.y, { width: WIDTH, align: 'center' });
}

/** Where a stamped CFDI shows its seals, a preview says why it has none. */
function previewNotice(doc: Doc): void {
  ensureSpace(doc, 60);
  sectionTitle(doc, 'Vista previa');
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor('#b00000')
    .text(
      `${PREVIEW_MARK}. Este borrador no ha sido sellado ni timbrado: no tiene folio fiscal (UUID), sellos ni código QR. Los importes son los que se timbrarán.`,
      MARGIN,
      doc.y,
      { width: WIDTH, align: 'center' },
    )
    .fillColor('black');
}

/**
 * The merchant's note, after everything fiscal, above a rule in the accent colour. It is text, not markup: pdfkit
 * prints each character as typed (characters outside WinAnsi, which Helvetica cannot draw, become "?").
 */
function noteSection(doc: Doc, note: string): void {
  const text = winAnsi(note);
  doc.font('Helvetica').fontSize(8);
  ensureSpace(doc, doc.heightOfString(text, { width: WIDTH }) + 16);
  doc.moveDown(0.8);
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + WIDTH, doc.y)
    .strokeColor(ruleColor(doc))
    .lineWidth(0.5)
    .stroke();
  doc.moveDown(0.4).fillColor('black').text(text, MARGIN, doc.y, { width: WIDTH, align: 'center' });
}

function pageNumbers(doc: Doc, legend: string): void {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not open a new page
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor(GRAY)
      .text(`${legend} - Página ${i + 1} de ${range.count}`, MARGIN, doc.page.height - MARGIN + 8, {
        width: WIDTH,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
}
