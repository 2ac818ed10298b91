import { buildInvoiceXml, type InvoiceInput } from '../src';
import { NOW } from './sat-dir';

const base: InvoiceInput = {
  issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
  receiver: {
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
    regimenFiscal: '601',
  },
  items: [{ productCode: '43211503', unitCode: 'H87', description: 'Laptop', quantity: 1, unitPrice: 100 }],
  formaPago: '03',
};
const build = (patch: Partial<InvoiceInput>) => () => buildInvoiceXml({ ...base, ...patch }, { now: NOW });

describe('builder guards', () => {
  it('PUE/PPD and FormaPago 99', () => {
    expect(build({ formaPago: '99' })).toThrow('PUE');
    expect(build({ metodoPago: 'PPD' })).toThrow('CFDI40105');
    expect(build({ metodoPago: 'PPD', formaPago: '99' })).not.toThrow();
  });

  it('global invoices', () => {
    expect(
      build({
        receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
      }),
    ).toThrow('kind "global"');
    expect(build({ kind: 'global' })).toThrow('informacionGlobal is required');
    expect(
      build({ kind: 'global', informacionGlobal: { periodicidad: '05', meses: '13', anio: 2026 } }),
    ).toThrow('621');
    expect(
      build({ kind: 'global', informacionGlobal: { periodicidad: '04', meses: '14', anio: 2026 } }),
    ).toThrow('meses');
    expect(build({ informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 } })).toThrow(
      'only allowed',
    );
    const { xml } = buildInvoiceXml(
      { ...base, kind: 'global', informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 } },
      { now: NOW },
    );
    expect(xml).toContain('<cfdi:InformacionGlobal Periodicidad="04" Meses="11" Año="2026"/>');
    expect(xml).toContain(
      '<cfdi:Receptor Rfc="XAXX010101000" Nombre="PUBLICO EN GENERAL" DomicilioFiscalReceptor="42501" RegimenFiscalReceptor="616" UsoCFDI="S01"/>',
    );
  });

  it('rates and amounts', () => {
    expect(build({ items: [{ ...base.items[0]!, iepsRate: 0.2 }] })).toThrow('IEPS');
    expect(build({ items: [{ ...base.items[0]!, ivaRate: 0.15 }] })).toThrow('ivaRate');
    expect(build({ items: [{ ...base.items[0]!, quantity: 0 }] })).toThrow('greater than 0');
    expect(build({ cartDiscount: 200 })).toThrow('cartDiscount');
    expect(build({ items: [{ ...base.items[0]!, description: 'a|b' }] })).toThrow('pipe');
  });

  it('Folio is folioText when given, else the numeric folio; sku is an alias of noIdentificacion', () => {
    const a = buildInvoiceXml(
      { ...base, serie: 'A', folio: 42, items: [{ ...base.items[0]!, sku: 'OLD' }] },
      { now: NOW },
    ).xml;
    expect(a).toContain('Serie="A" Folio="42"');
    expect(a).toContain('NoIdentificacion="OLD"');
    const b = buildInvoiceXml(
      {
        ...base,
        folio: 42,
        folioText: 'F-0042',
        items: [{ ...base.items[0]!, sku: 'OLD', noIdentificacion: 'NEW' }],
      },
      { now: NOW },
    ).xml;
    expect(b).toContain('Folio="F-0042"');
    expect(b).toContain('NoIdentificacion="NEW"');
  });
});
