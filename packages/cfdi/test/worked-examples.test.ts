import { computeInvoice } from '../src';

describe('cfdi40.md worked examples', () => {
  it('§2.5 A: tax-inclusive prices, IVA 16% and 0%', () => {
    const r = computeInvoice({
      pricesIncludeTax: true,
      items: [
        { productCode: '50202306', unitCode: 'H87', description: 'A', quantity: 3, unitPrice: 18.5, ivaRate: 0.16 },
        { productCode: '50202306', unitCode: 'H87', description: 'B', quantity: 2, unitPrice: 27.9, ivaRate: 0 },
        { productCode: '50202306', unitCode: 'H87', description: 'C', quantity: 1, unitPrice: 149, ivaRate: 0.16 },
      ],
    });
    expect(r.concepts.map((c) => [c.cantidad, c.valorUnitario, c.importe, c.traslados[0]!.importe])).toEqual([
      ['3', '15.948276', '47.844828', '7.655172'],
      ['2', '27.900000', '55.800000', '0.000000'],
      ['1', '128.448276', '128.448276', '20.551724'],
    ]);
    expect(r.subTotal).toBe('232.09');
    expect(r.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '176.29', importe: '28.21' },
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.000000', base: '55.80', importe: '0.00' },
    ]);
    expect(r.totalImpuestosTrasladados).toBe('28.21');
    expect(r.total).toBe('260.30');
    expect(r.chargedTotal).toBe('260.30');
  });

  it('§2.6 B: cart discount prorated by Importe, remainder to the last line', () => {
    const r = computeInvoice({
      pricesIncludeTax: false,
      cartDiscount: 200,
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'A', quantity: 10, unitPrice: 125.5 },
        { productCode: '43211503', unitCode: 'H87', description: 'B', quantity: 3, unitPrice: 449.99 },
        { productCode: '86121503', unitCode: 'E48', description: 'C', quantity: 4, unitPrice: 62.25, taxable: false },
      ],
    });
    expect(r.concepts.map((c) => [c.valorUnitario, c.importe, c.descuento, c.traslados[0]!.base, c.traslados[0]!.importe])).toEqual([
      ['125.50', '1255.00', '87.95', '1167.05', '186.73'],
      ['449.99', '1349.97', '94.60', '1255.37', '200.86'],
      ['62.25', '249.00', '17.45', '231.55', undefined],
    ]);
    expect(r.subTotal).toBe('2853.97');
    expect(r.descuento).toBe('200.00');
    expect(r.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '2422.42', importe: '387.59' },
      { impuesto: '002', tipoFactor: 'Exento', base: '231.55' },
    ]);
    expect(r.totalImpuestosTrasladados).toBe('387.59');
    expect(r.total).toBe('3041.56');
  });
});
