import { validateInvoiceRequest, type InvoiceRequest } from '@cfdi/cfdi';
import { CatalogIndex } from '../src/catalog-index';
import { readTsvDirectory } from '../src/source/read-tsv';
import { satCatalogsDir } from './helpers/source-dirs';
import { toSnapshot } from './helpers/tsv-snapshot';

let index: CatalogIndex;
beforeAll(async () => {
  index = new CatalogIndex(toSnapshot(await readTsvDirectory(satCatalogsDir)));
});

const context = { issuer: { rfc: 'EKU9003173C9', regimenFiscal: '601', zip: '42501' }, now: new Date() };
const request = (productCode: string, usoCfdi = 'G03'): InvoiceRequest => ({
  merchantId: 'm_1',
  formaPago: '03',
  usoCfdi,
  receiver: {
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
    regimenFiscal: '601',
  },
  items: [{ productCode, unitCode: 'H87', description: 'Laptop', quantity: 1, unitPrice: 100 }],
});

test('the index lookup drives the CFDI engine validation', () => {
  expect(validateInvoiceRequest(request('43211503'), index.lookup, context)).toEqual([]);
  expect(validateInvoiceRequest(request('15101506'), index.lookup, context).map((i) => i.path)).toEqual([
    '/items/0/productCode',
  ]);
  // CN01 (Nómina) only applies to régimen 605, not to this receiver's 601.
  expect(
    validateInvoiceRequest(request('43211503', 'CN01'), index.lookup, context).map((i) => i.path),
  ).toContain('/usoCfdi');
});

test('currencies, countries and the Comercio Exterior keys (from catComExt.xsd) are looked up', () => {
  expect(index.lookup.moneda('JPY')).toEqual({ decimales: 0, variacion: 5 });
  expect(index.lookup.moneda('USD')).toEqual({ decimales: 2, variacion: 5 });
  expect(index.lookup.moneda('ZZZ')).toBeUndefined();
  expect(index.lookup.pais('USA')).toEqual({ patronIdentidadTributaria: '[0-9]{9}' });
  expect(index.lookup.hasComercioExteriorKey('incoterms', 'FOB')).toBe(true);
  expect(index.lookup.hasComercioExteriorKey('incoterms', 'XYZ')).toBe(false);
  expect(index.lookup.hasComercioExteriorKey('unidades-aduana', '06')).toBe(true);
  expect(index.lookup.hasComercioExteriorKey('fracciones-arancelarias', '8471300101')).toBe(true);
  expect(index.lookup.hasComercioExteriorKey('fracciones-arancelarias', '8471300102')).toBe(false);
  // Shipped before any import: Incoterms and customs units yes, the ~26,000 fracciones only once imported.
  expect(CatalogIndex.shipped().lookup.hasComercioExteriorKey('incoterms', 'FOB')).toBe(true);
  expect(CatalogIndex.shipped().lookup.hasComercioExteriorKey('fracciones-arancelarias', '8471300101')).toBe(
    false,
  );
});

test('the large Carta Porte catalogs (from catCartaPorte.xsd) are looked up once imported', () => {
  expect(index.lookup.hasCartaPorteKey('productos-carta-porte', '24101500')).toBe(true);
  // A c_ClaveProdServ key that is not in c_ClaveProdServCP (a service, not a good that travels).
  expect(index.lookup.hasProductCode('78101802')).toBe(true);
  expect(index.lookup.hasCartaPorteKey('productos-carta-porte', '78101802')).toBe(false);
  expect(index.lookup.hasCartaPorteKey('materiales-peligrosos', '1090')).toBe(true);
  expect(index.lookup.hasCartaPorteKey('materiales-peligrosos', 'M0001')).toBe(true);
  expect(index.lookup.hasCartaPorteKey('materiales-peligrosos', '9999')).toBe(false);
  expect(CatalogIndex.shipped().lookup.hasCartaPorteKey('productos-carta-porte', '24101500')).toBe(false);
});
