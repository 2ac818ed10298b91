import { computeNomina, computePayment, type NominaInput, type PaymentInput } from '../src';

const base: PaymentInput = {
  issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
  receiver: {
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
    regimenFiscal: '601',
  },
  invoice: {
    uuid: '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
    total: '1000.00',
    taxGroups: [
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '600.00', importe: '96.00' },
      { impuesto: '003', tipoFactor: 'Tasa', tasaOCuota: '0.080000', base: '250.00', importe: '20.00' },
      { impuesto: '002', tipoFactor: 'Exento', base: '34.00' },
    ],
  },
  monto: '333.33',
  numParcialidad: 1,
  saldoAnterior: '1000.00',
  fechaPago: '2026-11-19T13:05:00',
  formaPago: '03',
};

describe('computePayment', () => {
  it('applies ImpPagado / Total to every group and totals by IVA rate', () => {
    const p = computePayment(base);
    expect(p.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '200.00', importe: '32.00' },
      { impuesto: '003', tipoFactor: 'Tasa', tasaOCuota: '0.080000', base: '83.33', importe: '6.67' },
      { impuesto: '002', tipoFactor: 'Exento', base: '11.33' },
    ]);
    expect(p.totales).toEqual({
      TotalTrasladosBaseIVA16: '200.00',
      TotalTrasladosImpuestoIVA16: '32.00',
      TotalTrasladosBaseIVAExento: '11.33',
      MontoTotalPagos: '333.33',
    });
    expect(p).toMatchObject({
      impSaldoAnt: '1000.00',
      impPagado: '333.33',
      impSaldoInsoluto: '666.67',
      objetoImpDR: '02',
    });
  });

  it('the settling installment takes the remainder of each base (and of each tax inside its band)', () => {
    const last = computePayment({
      ...base,
      monto: '333.34',
      saldoAnterior: '333.34',
      numParcialidad: 3,
      previousInstallments: [
        { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '400.00', importe: '64.00' },
        { impuesto: '003', tipoFactor: 'Tasa', tasaOCuota: '0.080000', base: '166.66', importe: '13.34' },
        { impuesto: '002', tipoFactor: 'Exento', base: '22.66' },
      ],
    });
    expect(last.impSaldoInsoluto).toBe('0.00');
    expect(last.traslados.map((t) => [t.base, t.importe])).toEqual([
      ['200.00', '32.00'],
      ['83.34', '6.66'],
      ['11.34', undefined],
    ]);
  });

  it('the settling installment keeps every taxed group even when earlier rounding used up its base (tiny payments)', () => {
    // 1,160.00 with IVA 16 % paid as 0.25, 0.25, 1,159.49 and 0.01: the first three already attribute Base 1,000.00.
    const invoice = {
      ...base.invoice,
      total: '1160.00',
      taxGroups: [
        {
          impuesto: '002' as const,
          tipoFactor: 'Tasa' as const,
          tasaOCuota: '0.160000',
          base: '1000.00',
          importe: '160.00',
        },
      ],
    };
    const last = computePayment({
      ...base,
      invoice,
      monto: '0.01',
      saldoAnterior: '0.01',
      numParcialidad: 4,
      previousInstallments: [
        { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '1000.00', importe: '160.01' },
      ],
    });
    expect(last.objetoImpDR).toBe('02');
    expect(last.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '0.01', importe: '0.00' },
    ]);
    expect(last.totales).toEqual({
      TotalTrasladosBaseIVA16: '0.01',
      TotalTrasladosImpuestoIVA16: '0.00',
      MontoTotalPagos: '0.01',
    });
  });

  it('leaves out a group whose share is below 0.000001 (BaseDR must be > 0); the settling installment carries it', () => {
    const invoice = {
      uuid: base.invoice.uuid,
      total: '290000.10',
      taxGroups: [
        {
          impuesto: '002' as const,
          tipoFactor: 'Tasa' as const,
          tasaOCuota: '0.160000',
          base: '250000.00',
          importe: '40000.00',
        },
        { impuesto: '002' as const, tipoFactor: 'Exento' as const, base: '0.10' },
      ],
    };
    const first = computePayment({ ...base, invoice, monto: '1.00', saldoAnterior: '290000.10' });
    expect(first.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '0.86', importe: '0.14' },
    ]);
    expect(first.totales).toEqual({
      TotalTrasladosBaseIVA16: '0.86',
      TotalTrasladosImpuestoIVA16: '0.14',
      MontoTotalPagos: '1.00',
    });
    const last = computePayment({
      ...base,
      invoice,
      monto: '289999.10',
      saldoAnterior: '289999.10',
      numParcialidad: 2,
      previousInstallments: [
        { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '0.86', importe: '0.14' },
      ],
    });
    expect(last.traslados).toContainEqual({ impuesto: '002', tipoFactor: 'Exento', base: '0.10' });
  });

  it('an invoice without taxes gives ObjetoImpDR 01 and only MontoTotalPagos', () => {
    const p = computePayment({ ...base, invoice: { ...base.invoice, taxGroups: [] } });
    expect(p.objetoImpDR).toBe('01');
    expect(p.totales).toEqual({ MontoTotalPagos: '333.33' });
  });

  it.each([
    [{ monto: 0 }, 'greater than 0'],
    [{ monto: '1000.01', saldoAnterior: '1000.00' }, 'outstanding balance'],
    [{ saldoAnterior: '1000.01', monto: 1 }, 'invoice total'],
    [{ numParcialidad: 0 }, 'numParcialidad'],
    [{ fechaPago: '2026-11-19' }, 'fechaPago'],
  ])('refuses %j', (patch, message) => {
    expect(() => computePayment({ ...base, ...patch } as PaymentInput)).toThrow(message);
  });
});

describe('computeNomina', () => {
  const input: NominaInput = {
    issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    employee: {
      rfc: 'XOJI740919U48',
      name: 'INGRID XODAR JIMENEZ',
      zip: '76028',
      curp: 'XOJI740919MQTDMN03',
      tipoContrato: '01',
      tipoRegimen: '02',
      numEmpleado: '1',
      periodicidadPago: '04',
      claveEntFed: 'JAL',
    },
    period: {
      tipoNomina: 'O',
      fechaPago: '2026-11-15',
      fechaInicialPago: '2026-11-01',
      fechaFinalPago: '2026-11-15',
      numDiasPagados: 15,
    },
    percepciones: [
      { tipo: '001', clave: '001', concepto: 'Sueldo', importeGravado: 7000, importeExento: 0 },
      { tipo: '002', clave: '002', concepto: 'Aguinaldo', importeGravado: 1000.5, importeExento: 500.25 },
    ],
    deducciones: [
      { tipo: '002', clave: '002', concepto: 'ISR', importe: 640.5 },
      { tipo: '001', clave: '001', concepto: 'IMSS', importe: 180.25 },
    ],
    otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 12.34, subsidioCausado: 20 }],
  };

  it('computes the receipt totals', () => {
    expect(computeNomina(input)).toEqual({
      totalSueldos: '8500.75',
      totalGravado: '8000.50',
      totalExento: '500.25',
      totalPercepciones: '8500.75',
      totalOtrasDeducciones: '180.25',
      totalImpuestosRetenidos: '640.50',
      totalDeducciones: '820.75',
      totalOtrosPagos: '12.34',
      subTotal: '8513.09',
      descuento: '820.75',
      total: '7692.34',
    });
  });

  it('splits separación and one-payment pensions into accumulable income up to the last monthly salary (LISR art. 95)', () => {
    const t = computeNomina({
      ...input,
      percepciones: [
        ...input.percepciones!,
        { tipo: '023', clave: 'SEP', concepto: 'Separación', importeGravado: 40000, importeExento: 10000 },
        { tipo: '039', clave: 'JUB', concepto: 'Jubilación', importeGravado: 9000, importeExento: 1000 },
      ],
      separacionIndemnizacion: { numAniosServicio: 10, ultimoSueldoMensOrd: 15000 },
      jubilacionPensionRetiro: { ultimoSueldoMensOrd: 12000 },
    });
    expect(t).toMatchObject({
      totalSueldos: '8500.75',
      totalSeparacionIndemnizacion: '50000.00',
      totalJubilacionPensionRetiro: '10000.00',
      totalPercepciones: '68500.75',
      separacion: {
        totalPagado: '50000.00',
        numAniosServicio: '10',
        ultimoSueldoMensOrd: '15000.00',
        ingresoAcumulable: '15000.00',
        ingresoNoAcumulable: '25000.00',
      },
      jubilacion: {
        totalUnaExhibicion: '10000.00',
        ingresoAcumulable: '9000.00',
        ingresoNoAcumulable: '0.00',
      },
    });
  });

  it('refuses receipts that pay nothing or less than they deduct', () => {
    expect(() => computeNomina({ ...input, percepciones: [], otrosPagos: [] })).toThrow('NOM149');
    expect(() =>
      computeNomina({ ...input, deducciones: [{ tipo: '001', clave: '001', concepto: 'X', importe: 9000 }] }),
    ).toThrow('exceed');
  });
});
