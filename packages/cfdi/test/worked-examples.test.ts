import { computeInvoice, type InvoiceItem } from '../src';

describe('cfdi40.md worked examples', () => {
  it('§2.5 A: tax-inclusive prices, IVA 16% and 0%', () => {
    const r = computeInvoice({
      pricesIncludeTax: true,
      items: [
        {
          productCode: '50202306',
          unitCode: 'H87',
          description: 'A',
          quantity: 3,
          unitPrice: 18.5,
          ivaRate: 0.16,
        },
        {
          productCode: '50202306',
          unitCode: 'H87',
          description: 'B',
          quantity: 2,
          unitPrice: 27.9,
          ivaRate: 0,
        },
        {
          productCode: '50202306',
          unitCode: 'H87',
          description: 'C',
          quantity: 1,
          unitPrice: 149,
          ivaRate: 0.16,
        },
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
        {
          productCode: '86121503',
          unitCode: 'E48',
          description: 'C',
          quantity: 4,
          unitPrice: 62.25,
          taxable: false,
        },
      ],
    });
    // The example writes each line's IVA rounded to cents (186.73, 200.86); §2.1 step 3 allows that or 6 decimals.
    // The engine keeps 6 whenever cents would round, so the document sums what it rounds once (step 4).
    expect(
      r.concepts.map((c) => [
        c.valorUnitario,
        c.importe,
        c.descuento,
        c.traslados[0]!.base,
        c.traslados[0]!.importe,
      ]),
    ).toEqual([
      ['125.50', '1255.00', '87.95', '1167.05', '186.728000'],
      ['449.99', '1349.97', '94.60', '1255.37', '200.859200'],
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

  it('§2.1 with net prices: no line is rounded to cents before the document sums (round once, at the end)', () => {
    const many = (count: number, unitPrice: number, extra: Partial<InvoiceItem> = {}): InvoiceItem[] =>
      Array.from({ length: count }, (_, i) => ({
        productCode: '43211503',
        unitCode: 'H87',
        description: `P${i}`,
        quantity: 1,
        unitPrice,
        ...extra,
      }));
    const net = (items: InvoiceItem[]) => computeInvoice({ pricesIncludeTax: false, items });

    const eighths = net(many(500, 0.125));
    expect(eighths.concepts[0]).toMatchObject({
      valorUnitario: '0.125',
      importe: '0.125000',
      traslados: [{ base: '0.125000', importe: '0.02' }],
    });
    expect([eighths.subTotal, eighths.totalImpuestosTrasladados, eighths.total]).toEqual([
      '62.50',
      '10.00',
      '72.50',
    ]);

    const cents = net(many(100, 10.03));
    expect(cents.concepts[0]).toMatchObject({
      importe: '10.03',
      traslados: [{ base: '10.03', importe: '1.604800' }],
    });
    expect([cents.subTotal, cents.totalImpuestosTrasladados, cents.total]).toEqual([
      '1003.00',
      '160.48',
      '1163.48',
    ]);

    expect(net(many(500, 0.03)).totalImpuestosTrasladados).toBe('2.40');

    const ieps = net(many(50, 10.03, { iepsRate: 0.08 }));
    expect(ieps.traslados).toEqual([
      { impuesto: '003', tipoFactor: 'Tasa', tasaOCuota: '0.080000', base: '501.50', importe: '40.12' },
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '541.62', importe: '86.66' },
    ]);
  });
});
