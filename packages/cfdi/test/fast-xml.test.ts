import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cadenaOriginal } from '../src';
import { parseFast } from '../src/cadena/fast-xml';
import { fromDom } from '../src/cadena/tree';
import { parseXml } from '../src/xml/dom';
import { CADENA_XSLT, EXAMPLES, requireTools } from './sat-dir';

/** XML features the builders never emit but other issuers' documents may contain. */
const TRICKY = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<!-- leading comment -->',
  '<?some-pi data?>',
  "<Comprobante xmlns='http://www.sat.gob.mx/cfd/4' Version = '4.0' Serie=\"A&amp;B &#x9;x\" Folio='1&#10;&#13;2'",
  '  Fecha="2026-11-21T12:00:00" NoCertificado="30001000000500003416" SubTotal="10.00" Moneda="MXN" Total="11.60"',
  '  TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" LugarExpedicion="42501"',
  '  CondicionesDePago="tab\tand\r\nCRLF and\rCR  and &quot;quotes&quot; &apos;x&apos; &lt;&gt; &#241;&#x00D1; \u00a0nbsp\u00a0">',
  '  <Emisor Rfc="H&amp;E951128469" Nombre="HERRERIA &amp; ELECTRICOS" RegimenFiscal="601"/>',
  '  <!-- comment between children -->',
  '  <c:Receptor xmlns:c="http://www.sat.gob.mx/cfd/4" Rfc="URE180429TM6" Nombre="  UNIVERSIDAD   ROBOTICA  " DomicilioFiscalReceptor="86991" RegimenFiscalReceptor="601" UsoCFDI="G03"></c:Receptor>',
  '  <Conceptos><Concepto ClaveProdServ="01010101" Cantidad="1" ClaveUnidad="H87" Descripcion="x"><![CDATA[ ignored <text> ]]>',
  '    <Impuestos><Traslados><Traslado Base="10.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="1.60"/></Traslados></Impuestos>',
  '    <InformacionAduanera NumeroPedimento="23  47  3807  3000123"/>',
  '    <Parte ClaveProdServ="01010101" Cantidad="1" Descripcion="p"><InformacionAduanera NumeroPedimento="23  47  3807  3000124"/></Parte>',
  '  </Concepto></Conceptos>',
  '  <Impuestos TotalImpuestosTrasladados="1.60"><Traslados><Traslado Base="10.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="1.60"/></Traslados></Impuestos>',
  '</Comprobante>',
  '<!-- trailing comment -->',
].join('\n');

describe('fast XML reader', () => {
  beforeAll(requireTools);

  it.each(fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.xml')))(
    'reads %s exactly like xmldom',
    (file) => {
      const xml = fs.readFileSync(path.join(EXAMPLES, file), 'utf8');
      expect(parseFast(xml)).toEqual(fromDom(parseXml(xml)));
    },
  );

  it('handles default namespaces, other prefixes, comments, PIs, CDATA, quotes, entities and line ends like xsltproc', () => {
    expect(parseFast(TRICKY)).toEqual(fromDom(parseXml(TRICKY)));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-fast-'));
    const file = path.join(dir, 'tricky.xml');
    fs.writeFileSync(file, TRICKY);
    const reference = execFileSync('xsltproc', [CADENA_XSLT, file], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(cadenaOriginal(TRICKY)).toBe(reference);
  });

  it.each([
    ['mismatched tags', '<a><b></a></b>'],
    ['unclosed element', '<a><b/>'],
    ['duplicate attribute', '<a x="1" x="2"/>'],
    ['unknown entity', '<a x="&nbsp;"/>'],
    ['bare ampersand', '<a x="a & b"/>'],
    ['"<" in a value', '<a x="a<b"/>'],
    ['unquoted value', '<a x=1/>'],
    ['undeclared prefix', '<p:a/>'],
    ['two roots', '<a/><b/>'],
    ['invalid character reference', '<a x="&#1;"/>'],
    ['text after the root', '<a/>junk'],
  ])('refuses %s', (_, xml) => {
    expect(() => parseFast(xml)).toThrow('not well-formed');
  });

  it('leaves documents with a DOCTYPE to xmldom', () => {
    expect(parseFast('<!DOCTYPE a><a/>')).toBeUndefined();
  });
});
