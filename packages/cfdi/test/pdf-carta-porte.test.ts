import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildInvoiceXml, buildTrasladoXml, renderPdf, type CartaPorteInput } from '../src';
import { RECEIVERS } from './generators';
import { loadCsd, NOW, requirePdfTools } from './sat-dir';
import { mockStamp } from './stamp-helper';

// The Carta Porte 3.1 section of the printed CFDI (a traslado's and a freight invoice's), read back with pdftotext.

jest.setTimeout(60_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-pdf-cp-'));
beforeAll(requirePdfTools);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const csd = loadCsd();
const issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const UUID = '7A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';
const IDCCP = 'CCC1B2C3-4E5F-4A6B-8C7D-9E0F1A2B3C4D';

/** Whitespace-normalised text of the PDF (pdftotext -layout). */
function pdfText(pdf: Buffer, name: string): string {
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
}

const cartaPorte: CartaPorteInput = {
  idCCP: IDCCP,
  ubicaciones: [
    {
      tipo: 'Origen',
      rfc: 'EKU9003173C9',
      nombre: 'PLANTA PACHUCA',
      fechaHora: '2026-11-21T08:00:00',
      domicilio: { estado: 'HID', pais: 'MEX', codigoPostal: '42501', calle: 'Av. Juarez', municipio: '048' },
    },
    {
      tipo: 'Destino',
      rfc: 'URE180429TM6',
      fechaHora: '2026-11-21T18:00:00',
      distanciaRecorrida: '450.5',
      domicilio: { estado: 'VER', pais: 'MEX', codigoPostal: '91000' },
    },
    {
      tipo: 'Destino',
      rfc: 'URE180429TM6',
      nombre: 'ALMACEN VILLAHERMOSA',
      fechaHora: '2026-11-22T09:00:00',
      distanciaRecorrida: '370.25',
      domicilio: { estado: 'TAB', pais: 'MEX', codigoPostal: '86991' },
    },
  ],
  mercancias: [
    {
      bienesTransp: '24101500',
      descripcion: 'Montacargas',
      cantidad: '2',
      claveUnidad: 'H87',
      pesoEnKg: '3500.25',
    },
    {
      bienesTransp: '12352104',
      descripcion: 'Acetona',
      cantidad: '10',
      claveUnidad: 'LTR',
      pesoEnKg: '7.9',
      materialPeligroso: true,
      cveMaterialPeligroso: '1090',
      embalaje: '1A1',
    },
  ],
  autotransporte: {
    permSCT: 'TPAF01',
    numPermisoSCT: 'SCT-0001',
    configVehicular: 'T3S2',
    pesoBrutoVehicular: '41.5',
    placaVM: 'ABC1234',
    anioModeloVM: 2022,
    seguros: {
      aseguraRespCivil: 'SEGUROS SA',
      polizaRespCivil: 'POL-12345',
      aseguraMedAmbiente: 'ECO SEGUROS',
      polizaMedAmbiente: 'MA-7781',
    },
    remolques: [{ subTipoRem: 'CTR004', placa: 'XYZ987' }],
  },
  figuras: [
    { tipoFigura: '01', rfc: 'FUNK671228PH6', numLicencia: 'LIC123456', nombre: 'KARLA FUENTE NOLASCO' },
  ],
};

/** What every document carrying `cartaPorte` prints of it. */
const CARTA_PORTE_TEXT = [
  'Complemento Carta Porte 3.1',
  `IdCCP: ${IDCCP}`,
  'Transporte internacional: No',
  'Distancia total recorrida: 820.75 km',
  'Peso bruto total: 3508.15 kg',
  'Número total de mercancías: 2',
  // The stops in order, with their kinds and ids, parties, dates, distances and addresses.
  'Ubicación Remitente / destinatario Salida / llegada Distancia (km) Domicilio',
  'Origen EKU9003173C9 2026-11-21 08:00:00 Av. Juarez, 048, HID, MEX, C.P. 42501 OR000001 PLANTA PACHUCA',
  'Destino URE180429TM6 2026-11-21 18:00:00 450.5 VER, MEX, C.P. 91000 DE000001',
  'Destino URE180429TM6 2026-11-22 09:00:00 370.25 TAB, MEX, C.P. 86991 DE000002 ALMACEN VILLAHERMOSA',
  // The goods with their weights, the hazardous one with its key and packaging.
  'Clave Descripción Cantidad Unidad Peso (kg) Material peligroso Valor',
  '24101500 Montacargas 2 H87 3500.25',
  '12352104 Acetona 10 LTR 7.9 Sí, 1090, embalaje 1A1',
  // The vehicle, its permit, insurers and trailer; the driver.
  'Permiso SCT: TPAF01 SCT-0001',
  'Vehículo: T3S2, placa ABC1234, modelo 2022, peso bruto vehicular 41.5 t',
  'Remolques: CTR004 placa XYZ987',
  'Seguro de responsabilidad civil: SEGUROS SA, póliza POL-12345',
  'Seguro de medio ambiente: ECO SEGUROS, póliza MA-7781',
  'Figura de transporte: Operador (01): KARLA FUENTE NOLASCO, RFC FUNK671228PH6, licencia LIC123456',
];

describe('the Carta Porte section of the PDF', () => {
  it('a traslado: titled Traslado, its goods without price columns or totals, and its Carta Porte', async () => {
    const { xml } = buildTrasladoXml(
      {
        issuer,
        serie: 'TR',
        folio: 7,
        items: [
          {
            productCode: '24101500',
            unitCode: 'H87',
            unit: 'Pieza',
            description: 'Montacargas',
            quantity: '2',
          },
          { productCode: '12352104', unitCode: 'LTR', description: 'Acetona', quantity: '10' },
        ],
        cartaPorte,
      },
      { now: NOW },
    );
    const text = pdfText(await renderPdf(mockStamp(xml, csd, UUID)), 'traslado');
    for (const needle of [
      'Traslado TR-7',
      UUID,
      'Tipo de comprobante: T - Traslado',
      'RFC receptor: EKU9003173C9',
      'Uso CFDI: S01',
      'Moneda: XXX',
      'Mercancías trasladadas',
      'Clave Cant. Unidad Descripción Obj.',
      '24101500 2 H87 Pieza Montacargas 01',
      'no tiene valor, pago ni impuestos',
      ...CARTA_PORTE_TEXT,
      'Este documento es una representación impresa de un CFDI',
    ])
      expect(text).toContain(needle);
    // No price, amount or total that a traslado does not have.
    for (const absent of [
      'Valor unit.',
      'Importe',
      'Subtotal',
      'Total $',
      'PESOS',
      'Método de pago',
      'Forma de pago',
    ])
      expect(text).not.toContain(absent);
  });

  it("a carrier's freight invoice: its prices and totals as any invoice, then the same Carta Porte section", async () => {
    const { xml, computed } = buildInvoiceXml(
      {
        issuer,
        receiver: RECEIVERS[1]!,
        items: [
          { productCode: '78101802', unitCode: 'E48', description: 'Flete', quantity: 1, unitPrice: 8500 },
        ],
        formaPago: '03',
        usoCfdi: 'G03',
        serie: 'A',
        folio: 1002,
        cartaPorte,
      },
      { now: NOW },
    );
    const text = pdfText(await renderPdf(mockStamp(xml, csd, UUID)), 'flete');
    for (const needle of [
      'Factura (Ingreso)',
      'Valor unit.',
      `Total $${computed.total}`,
      ...CARTA_PORTE_TEXT,
    ])
      expect(text).toContain(needle);
  });

  it('a document without Carta Porte has no such section', async () => {
    const { xml } = buildTrasladoXml(
      {
        issuer,
        serie: 'TR',
        folio: 8,
        items: [{ productCode: '24101500', unitCode: 'H87', description: 'Montacargas', quantity: '1' }],
      },
      { now: NOW },
    );
    const text = pdfText(await renderPdf(mockStamp(xml, csd, UUID)), 'sin-cp');
    expect(text).toContain('Traslado TR-8');
    expect(text).not.toContain('Carta Porte');
  });
});
