import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import {
  buildInvoiceXml,
  buildNominaXml,
  buildPaymentXml,
  buildZip,
  cfdiZipEntries,
  renderPdf,
  verificationUrlFromXml,
  type InvoiceItem,
} from '../src';
import fc from 'fast-check';
import { nomina, RECEIVERS } from './generators';
import { loadCsd, NOW, requirePdfTools } from './sat-dir';
import { mockStamp } from './stamp-helper';

jest.setTimeout(120_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-pdf-'));
beforeAll(requirePdfTools);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const csd = loadCsd();
const issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const UUID = '5E2D6A2B-8C1F-4B7A-9E3D-1A2B3C4D5E6F';

function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The PDF's page content streams, inflated (pdfkit deflates them): where colour operators are written. */
function contentStreams(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    try {
      out.push(zlib.inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1'));
    } catch {
      // an image or font stream that is not deflated
    }
  }
  return out.join('\n');
}

/** pdfkit's fill/stroke operator operands for a #RRGGBB colour ("r g b scn", each channel / 255). */
const colorOperands = (hex: string) =>
  [1, 3, 5].map((i) => String(parseInt(hex.slice(i, i + 2), 16) / 255)).join(' ');

function decodeQr(pdf: Buffer, name: string, page: number): string {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  const prefix = path.join(dir, name);
  execFileSync(
    'pdftoppm',
    ['-r', '150', '-png', '-f', String(page), '-l', String(page), '-singlefile', file, prefix],
    { stdio: 'ignore' },
  );
  // zbarimg complains on stderr about the missing D-Bus socket of a container; only stdout matters.
  return execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', `${prefix}.png`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
}

const threeItems: InvoiceItem[] = [
  {
    productCode: '43211503',
    unitCode: 'H87',
    unit: 'Pieza',
    description: 'Computadora portátil 14" con señal Wi‑Fi',
    quantity: 2,
    unitPrice: 14500,
    noIdentificacion: 'LAP-14-001',
    pedimentos: ['231234561234567', '23 47 3807 3000123'],
  },
  {
    productCode: '50202306',
    unitCode: 'H87',
    description: 'Refresco 600 ml',
    quantity: 12,
    unitPrice: 18.5,
    iepsRate: 0.08,
  },
  {
    productCode: '86121503',
    unitCode: 'E48',
    description: 'Colegiatura noviembre 😀',
    quantity: 1,
    unitPrice: 3500,
    taxable: false,
  },
];

describe('PDF representation', () => {
  it('3-item invoice: UUID, totals, pedimentos, words, legend; QR decodes to the verification URL', async () => {
    const { xml, computed } = buildInvoiceXml(
      {
        issuer,
        receiver: RECEIVERS[1]!,
        items: threeItems,
        shipping: { amount: 199 },
        formaPago: '03',
        usoCfdi: 'G03',
        serie: 'A',
        folio: 1001,
      },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const pdf = await renderPdf(stamped);
    const text = pdfText(pdf, 'three');
    // pdftotext collapses the two spaces of a NumeroPedimento; compare whitespace-normalised.
    const flat = text.replace(/\s+/g, ' ');
    for (const needle of [
      UUID,
      `$${computed.total}`,
      `$${computed.subTotal}`,
      '23 12 3456 1234567',
      '23 47 3807 3000123',
      'LAP-14-001',
      'HERRERIA & ELECTRICOS',
      '30001000000500003416',
      'Este documento es una representación impresa de un CFDI',
      'PESOS 00/100 M.N.',
    ]) {
      expect(flat).toContain(needle);
    }
    // Characters outside Helvetica's WinAnsi set print as "?" instead of mojibake.
    expect(flat).toContain('Colegiatura noviembre ?');
    expect(decodeQr(pdf, 'three', 1)).toBe(verificationUrlFromXml(stamped));
    expect(verificationUrlFromXml(stamped)).toContain('re=EKU9003173C9&rr=H&amp;E951128469&tt=');
    if (process.env.CFDI_WRITE_DOCS)
      execFileSync('cp', [path.join(dir, 'three.png'), process.env.CFDI_WRITE_DOCS]);
  });

  it('prints the border-region stimulus legend on invoices with IVA 8 %, and only on them', async () => {
    const border = buildInvoiceXml(
      {
        issuer,
        receiver: RECEIVERS[1]!,
        items: [{ ...threeItems[0]!, ivaRate: 0.08 }],
        formaPago: '03',
        usoCfdi: 'G03',
      },
      { now: NOW },
    );
    const flat = (xml: string, name: string) =>
      renderPdf(mockStamp(xml, csd, UUID)).then((pdf) => pdfText(pdf, name).replace(/\s+/g, ' '));
    expect(await flat(border.xml, 'border')).toContain(
      'IVA crédito aplicado del 50%: estímulo fiscal de la región fronteriza',
    );
    const ordinary = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[1]!, items: [threeItems[0]!], formaPago: '03', usoCfdi: 'G03' },
      { now: NOW },
    );
    expect(await flat(ordinary.xml, 'ordinary')).not.toContain('IVA crédito aplicado');
  });

  it('500-item invoice paginates with the table header on every page', async () => {
    const items: InvoiceItem[] = Array.from({ length: 500 }, (_, i) => ({
      productCode: '43211503',
      unitCode: 'H87',
      description: `Artículo número ${i + 1}${i % 7 === 0 ? ' con una descripción bastante más larga que ocupa dos renglones de la tabla' : ''}`,
      quantity: (i % 5) + 1,
      unitPrice: 10 + i,
      noIdentificacion: `SKU-${i + 1}`,
      ...(i % 50 === 0 ? { pedimentos: [`2647380730${String(i).padStart(5, '0')}`] } : {}),
    }));
    const { xml, computed } = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[0]!, items, formaPago: '03', usoCfdi: 'G01', cartDiscount: 250 },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const pdf = await renderPdf(stamped, {
      logo: fs.readFileSync(path.join(__dirname, 'fixtures', 'logo.png')),
    });
    const text = pdfText(pdf, 'long');
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    expect(pages.length).toBeGreaterThan(10);
    // Every page that holds concepts starts the table with its header row.
    const conceptPages = pages.filter((p) => /SKU-\d+/.test(p));
    expect(conceptPages.every((p) => /Clave\s+Cant\.\s+Unidad\s+Descripción/.test(p))).toBe(true);
    expect(text).toContain('SKU-500');
    expect(text.replace(/\s+/g, ' ')).toContain('26 47 3807 3000450');
    expect(text).toContain(`$${computed.total}`);
    expect(text).toContain(UUID);
    expect(decodeQr(pdf, 'long', pages.length)).toBe(verificationUrlFromXml(stamped));
  });

  it('payment complement shows the payment, the related document, their taxes and the Totales', async () => {
    const { xml } = buildPaymentXml(
      {
        issuer,
        receiver: RECEIVERS[0]!,
        serie: 'P',
        folio: 7,
        fechaPago: '2026-11-19T13:05:00',
        formaPago: '03',
        monto: 15960,
        numParcialidad: 1,
        saldoAnterior: 31920,
        invoice: {
          uuid: '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
          serie: 'A',
          folio: '1002',
          total: 31920,
          taxGroups: [
            {
              impuesto: '002',
              tipoFactor: 'Tasa',
              tasaOCuota: '0.160000',
              base: '24500.00',
              importe: '3920.00',
            },
          ],
        },
      },
      { now: NOW },
    );
    const text = pdfText(await renderPdf(mockStamp(xml, csd, UUID)), 'pago');
    for (const needle of [
      '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
      '15960.00',
      '2026-11-19T13:05:00',
      'saldo insoluto $15960.00',
    ])
      expect(text).toContain(needle);
    // cfdi40.md §9: taxes by type and rate, of the related document (DR) and of the payment (P), and the Totales.
    const oneLine = text.replace(/\s+/g, ' ');
    expect(oneLine).toContain('Impuestos del documento: IVA trasladado 0.160000 base $12250.00: $1960.00');
    expect(oneLine).toContain('Impuestos del pago: IVA trasladado 0.160000 base $12250.00: $1960.00');
    expect(oneLine).toContain(
      'Totales: base IVA 16% $12250.00; IVA 16% $1960.00; monto total de pagos $15960.00',
    );
  });

  it('the look: the brand colour fills the table header and rules, the note prints as typed at the foot', async () => {
    const { xml } = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[0]!, items: threeItems, formaPago: '03' },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const note = 'Banco: BBVA <b>CLABE</b> 012180001234567891 & ]]>\n¡Gracias por su compra! ${x} 😀 "\'|';
    const plain = await renderPdf(stamped);
    const branded = await renderPdf(stamped, { brandColor: '#0d47a1', note });
    // The note, character for character (markup is text; the emoji Helvetica cannot draw becomes "?").
    const text = pdfText(branded, 'look');
    expect(text).toContain('Banco: BBVA <b>CLABE</b> 012180001234567891 & ]]>');
    expect(text).toContain('¡Gracias por su compra! ${x} ? "\'|');
    // After the seals: the last thing on the last page but the page legend.
    const lastPage = text
      .split('\f')
      .filter((p) => p.trim() !== '')
      .at(-1)!;
    expect(lastPage.indexOf('¡Gracias por su compra!')).toBeGreaterThan(lastPage.indexOf('Cadena original'));
    expect(pdfText(plain, 'plain')).not.toContain('Gracias');
    // The colour is in the content stream (the header's fill, the rules' stroke), and only with the look.
    const navy = colorOperands('#0d47a1');
    expect(contentStreams(branded)).toContain(`${navy} scn`);
    expect(contentStreams(branded)).toContain(`${navy} SCN`);
    expect(contentStreams(plain)).not.toContain(navy);
    // White header text on navy (readableTextOn); on a light yellow the header text stays black.
    const headerText = (pdf: Buffer, fill: string) =>
      new RegExp(`${colorOperands(fill)} scn\\nf\\n/DeviceRGB cs\\n([0-9. ]+) scn`).exec(
        contentStreams(pdf),
      )?.[1];
    expect(headerText(branded, '#0d47a1')).toBe('1 1 1');
    expect(headerText(await renderPdf(stamped, { brandColor: '#ffeb3b' }), '#ffeb3b')).toBe('0 0 0');
  });

  it('a payment in another currency than its invoice names both currencies and the equivalence', async () => {
    const { xml } = buildPaymentXml(
      {
        issuer,
        receiver: RECEIVERS[0]!,
        fechaPago: '2026-11-19T13:05:00',
        formaPago: '03',
        monto: '1000.00',
        equivalenciaDR: '0.058',
        numParcialidad: 1,
        saldoAnterior: '116.00',
        invoice: {
          uuid: '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
          total: '116.00',
          moneda: 'USD',
          taxGroups: [
            { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '100.00', importe: '16.00' },
          ],
        },
      },
      { now: NOW },
    );
    const oneLine = pdfText(await renderPdf(mockStamp(xml, csd, UUID)), 'pago-usd').replace(/\s+/g, ' ');
    expect(oneLine).toContain('$1000.00 MXN');
    expect(oneLine).toContain(
      'saldo anterior $116.00 USD; importe pagado $58.00 USD; saldo insoluto $58.00 USD; equivalencia 0.058 USD por MXN',
    );
  });

  it('a logo pdfkit cannot embed (WebP, broken PNG) falls back to the legal name', async () => {
    const { xml } = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[0]!, items: threeItems, formaPago: '03' },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
    const brokenPng = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    for (const logo of [webp, brokenPng]) {
      expect(pdfText(await renderPdf(stamped, { logo }), 'fallback').split('\n')[0]).toContain(
        'ESCUELA KEMPER URGATE',
      );
    }
  });

  it('recibo de nómina: employee and employer data, period, percepciones/deducciones/otros pagos tables, net pay in words, seals and QR', async () => {
    const { input } = fc
      .sample(nomina, { seed: 7, numRuns: 40 })
      .find(
        (s) =>
          s.input.percepciones?.length &&
          s.input.deducciones?.length &&
          s.input.otrosPagos?.length &&
          s.input.registroPatronal,
      )!;
    const { xml, totals } = buildNominaXml(input, { now: NOW });
    const stamped = mockStamp(xml, csd, UUID);
    const pdf = await renderPdf(stamped);
    const text = pdfText(pdf, 'nomina').replace(/\s+/g, ' ');
    for (const needle of [
      'Recibo de nómina',
      'Datos del empleado',
      input.employee.curp,
      'Registro patronal: B5510768108',
      'Periodo de pago',
      input.period.fechaInicialPago,
      'Percepciones',
      'Gravado Exento',
      'Deducciones',
      'Otros pagos',
      `Total percepciones $${totals.totalPercepciones}`,
      `Total deducciones $${totals.totalDeducciones}`,
      `Neto a pagar $${totals.total}`,
      'M.N.',
      UUID,
      'Sello digital del SAT',
    ]) {
      expect(text).toContain(needle);
    }
    expect(text).not.toContain('Conceptos');
    // The seals and the QR close the receipt, on its last page.
    const pages = Number(/Página 1 de (\d+)/.exec(text)![1]);
    expect(decodeQr(pdf, 'nomina', pages)).toBe(verificationUrlFromXml(stamped));
    if (process.env.CFDI_WRITE_DOCS)
      execFileSync('cp', [path.join(dir, 'nomina.png'), process.env.CFDI_WRITE_DOCS]);
  });

  it('ZIP holds the XML and the PDF', async () => {
    const { xml } = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[0]!, items: threeItems, formaPago: '03' },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const zip = await buildZip(cfdiZipEntries(UUID, stamped, await renderPdf(stamped)));
    const file = path.join(dir, 'cfdi.zip');
    fs.writeFileSync(file, zip);
    const listing = execFileSync('unzip', ['-l', file], { encoding: 'utf8' });
    expect(listing).toContain(`${UUID}.xml`);
    expect(listing).toContain(`${UUID}.pdf`);
    expect(execFileSync('unzip', ['-p', file, `${UUID}.xml`], { encoding: 'utf8' })).toBe(stamped);
  });

  it('dated by `createdAt`, the same XML gives the same bytes (a ZIP export part written again is identical)', async () => {
    const { xml } = buildInvoiceXml(
      { issuer, receiver: RECEIVERS[0]!, items: threeItems, formaPago: '03' },
      { now: NOW },
    );
    const stamped = mockStamp(xml, csd, UUID);
    const first = await renderPdf(stamped, { createdAt: NOW });
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later clock changes nothing
    expect((await renderPdf(stamped, { createdAt: NOW })).equals(first)).toBe(true);
    // The date is what differs otherwise (the file's creation date, and its ID made from it).
    expect((await renderPdf(stamped, { createdAt: new Date(NOW.getTime() + 1000) })).equals(first)).toBe(
      false,
    );
  });
});
