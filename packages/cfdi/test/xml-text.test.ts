import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOMParser, type Element } from '@xmldom/xmldom';
import fc from 'fast-check';
import {
  buildInvoiceXml,
  buildNominaXml,
  buildPaymentXml,
  cadenaOriginal,
  normalizeSpace,
  renderPdf,
  sealXml,
  type InvoiceInput,
  type NominaInput,
  type PaymentInput,
} from '../src';
import { parseTree } from '../src/cadena/fast-xml';
import type { XmlNode } from '../src/cadena/tree';
import { readCfdi } from '../src/pdf/cfdi-view';
import { nomina } from './nomina-generators';
import { CADENA_XSLT, loadCsd, NOW, requirePdfTools, requireTools } from './sat-dir';
import { mockStamp } from './stamp-helper';

/**
 * Issue #34 item 1: the text a document was built from is exactly what an XML reader gets back from its XML, for every
 * free-text attribute of invoices, payments and payroll receipts, whatever the text looks like (character references,
 * entities, markup, quotes, tabs and line breaks, any Unicode). Read back with xmldom (independent of the builder's
 * serializer settings), with the engine's own reader (cadena, PDF, QR) and, for the issue's examples, the SAT's XSLT.
 */

/** A free-text value: attribute name in the XML (with its element) and the value it was built from. */
interface Field {
  element: string;
  attribute: string;
  value: string;
  /** Which of several same-named elements (0 = first in document order). */
  index?: number;
}

function elementsByLocalName(root: Element, localName: string): Element[] {
  const out: Element[] = [];
  const visit = (el: Element): void => {
    if (el.localName === localName) out.push(el);
    for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) visit(n as Element);
  };
  visit(root);
  return out;
}

function nodesByLocalName(root: XmlNode, localName: string): XmlNode[] {
  const out: XmlNode[] = [];
  const visit = (el: XmlNode): void => {
    if (el.localName === localName) out.push(el);
    el.children.forEach(visit);
  };
  visit(root);
  return out;
}

/** Each field as xmldom and the engine's reader return it, next to the value it was built from. */
function readBack(xml: string, fields: Field[]) {
  const dom = new DOMParser({
    // Warnings are not faults: xmldom warns on U+FFFD, a character the text may hold.
    onError: (level, msg) => {
      if (level !== 'warning') throw new Error(`${level}: ${msg}`);
    },
  }).parseFromString(xml, 'text/xml').documentElement!;
  const tree = parseTree(xml);
  return fields.map((f) => ({
    field: `${f.element}@${f.attribute}`,
    built: f.value,
    xmldom: elementsByLocalName(dom, f.element)[f.index ?? 0]?.getAttribute(f.attribute),
    engine: nodesByLocalName(tree, f.element)[f.index ?? 0]?.attributes.get(f.attribute),
  }));
}

function expectRoundTrip(xml: string, fields: Field[]): void {
  const read = readBack(xml, fields);
  expect(read).toEqual(read.map((r) => ({ ...r, xmldom: r.built, engine: r.built })));
}

const ISSUER = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};

interface InvoiceTexts {
  serie: string;
  folio: string;
  condiciones: string;
  issuerName: string;
  receiverName: string;
  description: string;
  unit: string;
  noIdentificacion: string;
}

function invoiceWith(t: InvoiceTexts): { input: InvoiceInput; fields: Field[] } {
  return {
    input: {
      issuer: { ...ISSUER, legalName: t.issuerName },
      receiver: { ...RECEIVER, name: t.receiverName },
      serie: t.serie,
      folioText: t.folio,
      condicionesDePago: t.condiciones,
      formaPago: '03',
      usoCfdi: 'G03',
      items: [
        {
          productCode: '43211503',
          unitCode: 'H87',
          description: t.description,
          unit: t.unit,
          noIdentificacion: t.noIdentificacion,
          quantity: 1,
          unitPrice: 116,
        },
      ],
    },
    fields: [
      { element: 'Comprobante', attribute: 'Serie', value: t.serie },
      { element: 'Comprobante', attribute: 'Folio', value: t.folio },
      { element: 'Comprobante', attribute: 'CondicionesDePago', value: t.condiciones },
      { element: 'Emisor', attribute: 'Nombre', value: t.issuerName },
      { element: 'Receptor', attribute: 'Nombre', value: t.receiverName },
      { element: 'Concepto', attribute: 'Descripcion', value: t.description },
      { element: 'Concepto', attribute: 'Unidad', value: t.unit },
      { element: 'Concepto', attribute: 'NoIdentificacion', value: t.noIdentificacion },
    ],
  };
}

interface PaymentTexts {
  serie: string;
  folio: string;
  issuerName: string;
  receiverName: string;
  numOperacion: string;
  invoiceSerie: string;
  invoiceFolio: string;
}

function paymentWith(t: PaymentTexts): { input: PaymentInput; fields: Field[] } {
  return {
    input: {
      issuer: { ...ISSUER, legalName: t.issuerName },
      receiver: { ...RECEIVER, name: t.receiverName },
      serie: t.serie,
      folioText: t.folio,
      invoice: {
        uuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
        serie: t.invoiceSerie,
        folio: t.invoiceFolio,
        total: '116.00',
        taxGroups: [
          { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '100.00', importe: '16.00' },
        ],
      },
      monto: '116.00',
      numParcialidad: 1,
      saldoAnterior: '116.00',
      fechaPago: '2026-11-20T12:00:00',
      formaPago: '03',
      numOperacion: t.numOperacion,
    },
    fields: [
      { element: 'Comprobante', attribute: 'Serie', value: t.serie },
      { element: 'Comprobante', attribute: 'Folio', value: t.folio },
      { element: 'Emisor', attribute: 'Nombre', value: t.issuerName },
      { element: 'Receptor', attribute: 'Nombre', value: t.receiverName },
      { element: 'Pago', attribute: 'NumOperacion', value: t.numOperacion },
      { element: 'DoctoRelacionado', attribute: 'Serie', value: t.invoiceSerie },
      { element: 'DoctoRelacionado', attribute: 'Folio', value: t.invoiceFolio },
    ],
  };
}

// One valid payroll receipt with every node that carries text (percepciones, deducciones, otros pagos).
const NOMINA_BASE: NominaInput = fc
  .sample(nomina, { numRuns: 200, seed: 34 })
  .map((n) => n.input)
  .find((n) => n.percepciones?.length && n.deducciones?.length && n.otrosPagos?.length)!;

interface NominaTexts {
  serie: string;
  folio: string;
  issuerName: string;
  employeeName: string;
  numEmpleado: string;
  departamento: string;
  puesto: string;
  percepcionClave: string;
  percepcionConcepto: string;
  deduccionClave: string;
  deduccionConcepto: string;
  otroPagoClave: string;
  otroPagoConcepto: string;
}

function nominaWith(t: NominaTexts): { input: NominaInput; fields: Field[] } {
  const [p0, ...ps] = NOMINA_BASE.percepciones!;
  const [d0, ...ds] = NOMINA_BASE.deducciones!;
  const [o0, ...os] = NOMINA_BASE.otrosPagos!;
  return {
    input: {
      ...NOMINA_BASE,
      issuer: { ...NOMINA_BASE.issuer, legalName: t.issuerName },
      serie: t.serie,
      folioText: t.folio,
      employee: {
        ...NOMINA_BASE.employee,
        name: t.employeeName,
        numEmpleado: t.numEmpleado,
        departamento: t.departamento,
        puesto: t.puesto,
      },
      percepciones: [{ ...p0!, clave: t.percepcionClave, concepto: t.percepcionConcepto }, ...ps],
      deducciones: [{ ...d0!, clave: t.deduccionClave, concepto: t.deduccionConcepto }, ...ds],
      otrosPagos: [{ ...o0!, clave: t.otroPagoClave, concepto: t.otroPagoConcepto }, ...os],
    },
    fields: [
      { element: 'Comprobante', attribute: 'Serie', value: t.serie },
      { element: 'Comprobante', attribute: 'Folio', value: t.folio },
      { element: 'Emisor', attribute: 'Nombre', value: t.issuerName },
      { element: 'Receptor', attribute: 'Nombre', value: t.employeeName },
      { element: 'Receptor', attribute: 'NumEmpleado', value: t.numEmpleado, index: 1 },
      { element: 'Receptor', attribute: 'Departamento', value: t.departamento, index: 1 },
      { element: 'Receptor', attribute: 'Puesto', value: t.puesto, index: 1 },
      { element: 'Percepcion', attribute: 'Clave', value: t.percepcionClave },
      { element: 'Percepcion', attribute: 'Concepto', value: t.percepcionConcepto },
      { element: 'Deduccion', attribute: 'Clave', value: t.deduccionClave },
      { element: 'Deduccion', attribute: 'Concepto', value: t.deduccionConcepto },
      { element: 'OtroPago', attribute: 'Clave', value: t.otroPagoClave },
      { element: 'OtroPago', attribute: 'Concepto', value: t.otroPagoConcepto },
    ],
  };
}

describe('the examples of issue #34', () => {
  const csd = loadCsd();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-xml-text-'));
  beforeAll(() => {
    requireTools();
    requirePdfTools();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const texts: InvoiceTexts = {
    serie: 'A&amp;B',
    folio: 'F&#124;1',
    condiciones: 'Contado &#x7C; 30 días',
    issuerName: 'ESCUELA KEMPER URGATE',
    receiverName: '<IMG SRC=X ONERROR=&#97;LERT(7)>',
    description: 'Equipo &lt;b&gt; tres',
    unit: 'Caja "&quot;"',
    noIdentificacion: 'SKU&amp;#124;',
  };

  it('an XML reader gets back the text exactly: no entity is decoded twice, none is left for a reader to decode', () => {
    const { input, fields } = invoiceWith(texts);
    const { xml } = buildInvoiceXml(input, { now: NOW });
    expect(xml).toContain(' Folio="F&amp;#124;1"');
    expect(xml).toContain(' Descripcion="Equipo &amp;lt;b&amp;gt; tres"');
    expect(xml).toContain(' NoIdentificacion="SKU&amp;amp;#124;"');
    expectRoundTrip(xml, fields);
  });

  it('the SAT XSLT and the engine read the same cadena, which holds the text as accepted (no pipe from &#124;)', () => {
    const sealed = sealXml(buildInvoiceXml(invoiceWith(texts).input, { now: NOW }).xml, csd);
    const file = path.join(dir, 'issue-34.xml');
    fs.writeFileSync(file, sealed.xml);
    const xslt = execFileSync('xsltproc', [CADENA_XSLT, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'], // it warns about the complements' stylesheets it cannot compile
    });
    expect(sealed.cadena).toBe(xslt);
    expect(cadenaOriginal(sealed.xml)).toBe(xslt);
    expect(xslt).toContain('|F&#124;1|');
    expect(xslt).toContain('|Contado &#x7C; 30 días|');
    expect(xslt).toContain('|Equipo &lt;b&gt; tres|');
    // Fields of the cadena: the fixed ones plus exactly the pipes around them, none from the text.
    expect(xslt.split('|').length).toBe(cadenaOriginal(buildPlain()).split('|').length);
  });

  it('the printed representation shows the text as accepted, not what it would decode to', async () => {
    const stamped = mockStamp(
      buildInvoiceXml(invoiceWith(texts).input, { now: NOW }).xml,
      csd,
      '5E2D6A2B-8C1F-4B7A-9E3D-1A2B3C4D5E6F',
    );
    const view = readCfdi(stamped);
    expect({
      receptor: view.receptor.Nombre,
      descripcion: view.conceptos[0]!.attrs.Descripcion,
      folio: view.comprobante.Folio,
    }).toEqual({
      receptor: '<IMG SRC=X ONERROR=&#97;LERT(7)>',
      descripcion: 'Equipo &lt;b&gt; tres',
      folio: 'F&#124;1',
    });
    const pdf = path.join(dir, 'issue-34.pdf');
    fs.writeFileSync(pdf, await renderPdf(stamped));
    const printed = execFileSync('pdftotext', ['-raw', pdf, '-'], { encoding: 'utf8' });
    expect(printed).toContain('<IMG SRC=X ONERROR=&#97;LERT(7)>');
    expect(printed).toContain('Equipo &lt;b&gt; tres');
    expect(printed).not.toContain('ONERROR=aLERT');
  });

  function buildPlain(): string {
    const plain = Object.fromEntries(Object.keys(texts).map((k) => [k, 'X'])) as unknown as InvoiceTexts;
    return sealXml(buildInvoiceXml(invoiceWith(plain).input, { now: NOW }).xml, csd).xml;
  }
});

/** Text an attribute may hold: any Unicode the engine accepts, with the characters and fragments escaping is about. */
const FRAGMENTS = [
  '&',
  '#',
  ';',
  '&#124;',
  '&#x7C;',
  '&amp;',
  '&lt;b&gt;',
  '&quot;',
  '&apos;',
  '<',
  '>',
  '"',
  "'",
];
// U+2028: an XML 1.1 line end; U+2029: one to xmldom (U+0085 is a control character the API refuses).
const WHITESPACE = [' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\u2029'];
const freeText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }) },
      { weight: 2, arbitrary: fc.constantFrom(...FRAGMENTS) },
      { weight: 1, arbitrary: fc.constantFrom(...WHITESPACE) },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''))
  .map((s) =>
    // What the API refuses (validation/characters.ts, the pipe) is not text a document can be built from.
    s.replace(/(?![\t\n\r])\p{Cc}|\p{Noncharacter_Code_Point}|\p{Cs}|\|/gu, 'x'),
  )
  .filter((s) => normalizeSpace(s) !== '');

const texts = <K extends string>(keys: readonly K[]): fc.Arbitrary<Record<K, string>> =>
  fc.record(Object.fromEntries(keys.map((k) => [k, freeText]))) as fc.Arbitrary<Record<K, string>>;

describe('property: parse(XML) == input for random Unicode text in every free-text field', () => {
  it('invoices (and the cadena holds each value, whitespace collapsed)', () => {
    const keys = [
      'serie',
      'folio',
      'condiciones',
      'issuerName',
      'receiverName',
      'description',
      'unit',
      'noIdentificacion',
    ] as const;
    fc.assert(
      fc.property(texts(keys), (t) => {
        const { input, fields } = invoiceWith(t);
        const { xml } = buildInvoiceXml(input, { now: NOW });
        expectRoundTrip(xml, fields);
        const cadena = cadenaOriginal(xml);
        for (const f of fields) expect(cadena).toContain(`|${normalizeSpace(f.value)}|`);
      }),
      { numRuns: 300 },
    );
  });

  it('payment complements', () => {
    const keys = [
      'serie',
      'folio',
      'issuerName',
      'receiverName',
      'numOperacion',
      'invoiceSerie',
      'invoiceFolio',
    ] as const;
    fc.assert(
      fc.property(texts(keys), (t) => {
        const { input, fields } = paymentWith(t);
        expectRoundTrip(buildPaymentXml(input, { now: NOW }).xml, fields);
      }),
      { numRuns: 200 },
    );
  });

  it('payroll receipts', () => {
    const keys = [
      'serie',
      'folio',
      'issuerName',
      'employeeName',
      'numEmpleado',
      'departamento',
      'puesto',
      'percepcionClave',
      'percepcionConcepto',
      'deduccionClave',
      'deduccionConcepto',
      'otroPagoClave',
      'otroPagoConcepto',
    ] as const;
    fc.assert(
      fc.property(texts(keys), (t) => {
        const { input, fields } = nominaWith(t);
        expectRoundTrip(buildNominaXml(input, { now: NOW }).xml, fields);
      }),
      { numRuns: 200 },
    );
  });
});
