import {
  validateCreditNoteRequest,
  validateInvoiceRequest,
  validatePaymentRequest,
  type InvoiceRequest,
  type ValidationContext,
} from '../src';
import fc from 'fast-check';
import { tsvCatalogs } from './catalogs';
import { NOW } from './sat-dir';

const catalogs = tsvCatalogs();
const context: ValidationContext = {
  issuer: { rfc: 'EKU9003173C9', regimenFiscal: '601', zip: '42501' },
  now: NOW,
};

const valid = (): InvoiceRequest => ({
  merchantId: 'm_1',
  formaPago: '03',
  usoCfdi: 'G03',
  receiver: {
    rfc: 'URE180429TM6',
    name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
    zip: '86991',
    regimenFiscal: '601',
  },
  items: [
    {
      productCode: '43211503',
      unitCode: 'H87',
      description: 'Laptop',
      quantity: 1,
      unitPrice: 100,
      pedimentos: ['23 47 3807 3000123'],
    },
    {
      productCode: '86121503',
      unitCode: 'E48',
      description: 'Curso',
      quantity: 2,
      unitPrice: 50,
      taxable: false,
    },
  ],
});

const paths = (req: InvoiceRequest, ctx = context) =>
  validateInvoiceRequest(req, catalogs, ctx).map((i) => i.path);

describe('validateInvoiceRequest', () => {
  it('accepts a correct request', () => {
    expect(validateInvoiceRequest(valid(), catalogs, context)).toEqual([]);
  });

  it("refuses amounts over the 18 integer digits of the XSD's t_Importe, per line and in total", () => {
    const item = { productCode: '43211503', unitCode: 'H87', description: 'x' };
    expect(
      paths({
        ...valid(),
        pricesIncludeTax: false,
        items: [{ ...item, quantity: 1_000_000_000, unitPrice: 99_999_999_999 }],
      }),
    ).toEqual(['/items/0']);
    const half = { ...item, quantity: 600_000_000, unitPrice: 1_000_000_000 };
    expect(paths({ ...valid(), pricesIncludeTax: false, items: [half, half] })).toEqual(['/items']);
    expect(
      paths({
        ...valid(),
        pricesIncludeTax: false,
        items: [{ ...item, quantity: 1, unitPrice: 99_999_999_999 }],
      }),
    ).toEqual([]);
  });

  it('refuses usoCfdi CP01 and CN01, which belong to payment complements and payroll, on income invoices and credit notes', () => {
    expect(paths({ ...valid(), usoCfdi: 'CP01' })).toEqual(['/usoCfdi']);
    expect(paths({ ...valid(), usoCfdi: 'CN01' })).toEqual(['/usoCfdi']);
    const note = {
      relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      formaPago: '03',
      receiver: valid().receiver,
      items: valid().items,
    };
    expect(
      validateCreditNoteRequest({ ...note, usoCfdi: 'CP01' }, catalogs, context).map((i) => i.path),
    ).toEqual(['/usoCfdi']);
    expect(validateCreditNoteRequest(note, catalogs, context)).toEqual([]);
  });

  it('refuses formaPago 99 on a credit note, which is always PUE, even for a PPD invoice (issue #34)', () => {
    const note = {
      relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      receiver: valid().receiver,
      items: valid().items,
    };
    const issues = validateCreditNoteRequest({ ...note, formaPago: '99' }, catalogs, context);
    expect(issues).toEqual([{ path: '/formaPago', message: expect.stringContaining('15 (condonación)') }]);
    for (const formaPago of ['15', '03', '01'])
      expect(validateCreditNoteRequest({ ...note, formaPago }, catalogs, context)).toEqual([]);
  });

  it('takes IVA 8 % only from merchants registered in the border-region stimulus', () => {
    const border = {
      ...valid(),
      items: [{ ...(valid().items as object[])[0]!, ivaRate: 0.08 }],
      shipping: { amount: 100, ivaRate: 0.08 },
    };
    expect(paths(border)).toEqual(['/items/0/ivaRate', '/shipping/ivaRate']);
    expect(paths(border, { ...context, issuer: { ...context.issuer, borderRegionStimulus: true } })).toEqual(
      [],
    );
    const note = {
      relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      formaPago: '03',
      receiver: valid().receiver,
      items: border.items,
    };
    expect(validateCreditNoteRequest(note, catalogs, context).map((i) => i.path)).toEqual([
      '/items/0/ivaRate',
    ]);
  });

  it('accepts RFCs with Ñ and &', () => {
    expect(
      paths({
        ...valid(),
        receiver: { rfc: 'H&E951128469', name: 'HERRERIA & ELECTRICOS', zip: '06002', regimenFiscal: '601' },
      }),
    ).toEqual([]);
    expect(
      paths({
        ...valid(),
        receiver: { rfc: 'IAÑL750210963', name: 'LUIS IAN ÑUZCO', zip: '85256', regimenFiscal: '612' },
      }),
    ).toEqual([]);
  });

  it('reports item fields by JSON pointer', () => {
    const req = valid();
    req.items = [
      ...(req.items as object[]),
      {
        productCode: '99999999',
        unitCode: 'ZZZ',
        description: 'a|b',
        quantity: 0,
        unitPrice: 1.1234567,
        ivaRate: 0.1,
        iepsRate: 0.2,
        pedimentos: ['12345'],
      },
    ];
    expect(paths(req)).toEqual([
      '/items/2/productCode',
      '/items/2/unitCode',
      '/items/2/description',
      '/items/2/quantity',
      '/items/2/unitPrice',
      '/items/2/ivaRate',
      '/items/2/iepsRate',
      '/items/2/pedimentos/0',
    ]);
    const messages = validateInvoiceRequest(req, catalogs, context)
      .map((i) => i.message)
      .join('\n');
    expect(messages).toContain('pipe');
    expect(messages).toContain('c_ClaveProdServ');
  });

  it('bad RFC, person type vs régimen, uso vs person type and régimen', () => {
    expect(
      paths({ ...valid(), receiver: { rfc: 'ure180429tm6', name: 'X', zip: '86991', regimenFiscal: '601' } }),
    ).toContain('/receiver/rfc');
    // Persona física with a régimen only for morales.
    expect(
      paths({
        ...valid(),
        receiver: { rfc: 'FUNK671228PH6', name: 'KARLA FUENTE NOLASCO', zip: '01160', regimenFiscal: '601' },
      }),
    ).toContain('/receiver/regimenFiscal');
    // D01 is only for personas físicas.
    // D01 breaks two rules: one entry for the path, both reasons in its message.
    const d01 = validateInvoiceRequest({ ...valid(), usoCfdi: 'D01' }, catalogs, context);
    expect(d01.map((i) => i.path)).toEqual(['/usoCfdi']);
    expect(d01[0]!.message).toMatch(
      /not allowed for a persona moral.*; uso D01 is not allowed with receiver régimen 601/,
    );
    // CN01 only with régimen 605.
    expect(paths({ ...valid(), usoCfdi: 'CN01' })).toContain('/usoCfdi');
  });

  it('sku, the obsolete alias: empty means absent, and it is not checked when noIdentificacion wins', () => {
    const withItem = (extra: object) => ({
      ...valid(),
      items: [{ ...(valid().items as object[])[0], ...extra }],
    });
    expect(paths(withItem({ sku: '' }))).toEqual([]);
    expect(paths(withItem({ sku: '', noIdentificacion: 'N1' }))).toEqual([]);
    expect(paths(withItem({ sku: 'a|b', noIdentificacion: 'N1' }))).toEqual([]);
    expect(paths(withItem({ sku: 'a|b' }))).toEqual(['/items/0/sku']);
    expect(paths(withItem({ sku: '   ' }))).toEqual(['/items/0/sku']);
  });

  it('name must be in capitals and without corporate suffix', () => {
    expect(
      paths({
        ...valid(),
        receiver: { rfc: 'URE180429TM6', name: 'Universidad Robotica', zip: '86991', regimenFiscal: '601' },
      }),
    ).toEqual(['/receiver/name']);
    expect(
      paths({
        ...valid(),
        receiver: {
          rfc: 'URE180429TM6',
          name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA SA DE CV',
          zip: '86991',
          regimenFiscal: '601',
        },
      }),
    ).toEqual(['/receiver/name']);
  });

  it('PUE needs a real payment form and PPD needs 99', () => {
    expect(paths({ ...valid(), formaPago: '99' })).toEqual(['/formaPago']);
    expect(paths({ ...valid(), metodoPago: 'PPD', formaPago: '03' })).toEqual(['/formaPago']);
    expect(paths({ ...valid(), metodoPago: 'PPD', formaPago: '99' })).toEqual([]);
    expect(paths({ ...valid(), formaPago: '77' })).toEqual(['/formaPago']);
  });

  it('cart discount must stay below the items amount', () => {
    expect(paths({ ...valid(), cartDiscount: 199.99 })).toEqual([]);
    expect(paths({ ...valid(), cartDiscount: 200 })).toEqual(['/cartDiscount']);
    expect(paths({ ...valid(), cartDiscount: -1 })).toEqual(['/cartDiscount']);
    expect(paths({ ...valid(), cartDiscount: 10.005 })).toEqual(['/cartDiscount']);
  });

  describe('global invoice', () => {
    const global = (ig: unknown, extra: Partial<InvoiceRequest> = {}): InvoiceRequest => ({
      ...valid(),
      usoCfdi: 'S01',
      formaPago: '01',
      informacionGlobal: ig,
      receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
      ...extra,
    });

    it('is accepted with its rules', () => {
      expect(paths(global({ periodicidad: '04', meses: '11', anio: 2026 }))).toEqual([]);
    });

    it('requires informacionGlobal for PUBLICO EN GENERAL and forbids it otherwise', () => {
      expect(paths(global(undefined))).toEqual(['/informacionGlobal']);
      expect(
        paths({ ...valid(), informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 } }),
      ).toEqual(['/informacionGlobal']);
    });

    it('periodicidad 05 needs régimen 621 and bimonthly meses', () => {
      expect(paths(global({ periodicidad: '05', meses: '18', anio: 2026 }))).toEqual([
        '/informacionGlobal/periodicidad',
      ]);
      const rif = { ...context, issuer: { ...context.issuer, regimenFiscal: '621' } };
      expect(paths(global({ periodicidad: '05', meses: '18', anio: 2026 }), rif)).toEqual([]);
      expect(paths(global({ periodicidad: '05', meses: '11', anio: 2026 }), rif)).toEqual([
        '/informacionGlobal/meses',
      ]);
      expect(paths(global({ periodicidad: '04', meses: '13', anio: 2026 }))).toEqual([
        '/informacionGlobal/meses',
      ]);
    });

    it('year is the current or previous one', () => {
      expect(paths(global({ periodicidad: '01', meses: '01', anio: 2024 }))).toEqual([
        '/informacionGlobal/anio',
      ]);
      expect(paths(global({ periodicidad: '01', meses: '12', anio: 2025 }))).toEqual([]);
    });

    it("refuses a period after the issue date's (issued 2026-11-21)", () => {
      expect(paths(global({ periodicidad: '04', meses: '12', anio: 2026 }))).toEqual([
        '/informacionGlobal/meses',
      ]);
      expect(paths(global({ periodicidad: '01', meses: '12', anio: 2026 }))).toEqual([
        '/informacionGlobal/meses',
      ]);
      expect(paths(global({ periodicidad: '04', meses: '11', anio: 2026 }))).toEqual([]);
      expect(paths(global({ periodicidad: '04', meses: '12', anio: 2025 }))).toEqual([]);
      const rif = { ...context, issuer: { ...context.issuer, regimenFiscal: '621' } };
      expect(paths(global({ periodicidad: '05', meses: '18', anio: 2026 }), rif)).toEqual([]);
    });

    it('generic receiver: zip = place of issue, 616, S01, PUE', () => {
      const req = global(
        { periodicidad: '04', meses: '11', anio: 2026 },
        { usoCfdi: 'G03', metodoPago: 'PPD', formaPago: '99' },
      );
      req.receiver = { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '01000', regimenFiscal: '601' };
      expect(paths(req).sort()).toEqual(
        ['/metodoPago', '/receiver/regimenFiscal', '/receiver/zip', '/usoCfdi'].sort(),
      );
    });
  });

  it('shipping fields', () => {
    expect(paths({ ...valid(), shipping: { amount: 0, ivaRate: 0.15, productCode: '123' } })).toEqual([
      '/shipping/amount',
      '/shipping/ivaRate',
      '/shipping/productCode',
    ]);
  });

  it('missing everything', () => {
    expect(paths({})).toEqual(['/formaPago', '/receiver', '/items']);
  });
});

describe('validators are total', () => {
  it('never throw on arbitrary JSON', () => {
    const anyJson = fc.anything({ maxDepth: 3, withObjectString: false });
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(
            'items',
            'receiver',
            'formaPago',
            'usoCfdi',
            'cartDiscount',
            'shipping',
            'informacionGlobal',
            'metodoPago',
            'folio',
          ),
          anyJson,
        ),
        (req) => {
          expect(Array.isArray(validateInvoiceRequest(req as InvoiceRequest, catalogs, context))).toBe(true);
          expect(Array.isArray(validateCreditNoteRequest(req, catalogs, context))).toBe(true);
          expect(Array.isArray(validatePaymentRequest(req, catalogs))).toBe(true);
        },
      ),
      { seed: 1, numRuns: 2000 },
    );
  });
});

describe('validateCreditNoteRequest', () => {
  it('needs a related document and a receiver with relatedUuid', () => {
    expect(
      validateCreditNoteRequest({ formaPago: '15', items: valid().items as object[] }, catalogs, context).map(
        (i) => i.path,
      ),
    ).toEqual(['/relatedUuid']);
    expect(
      validateCreditNoteRequest(
        { formaPago: '15', relatedUuid: 'nope', tipoRelacion: '02', items: valid().items as object[] },
        catalogs,
        context,
      ).map((i) => i.path),
    ).toEqual(['/relatedUuid', '/receiver', '/tipoRelacion']);
    expect(
      validateCreditNoteRequest(
        {
          formaPago: '15',
          relatedUuid: '6F3C1B2A-9D4E-4F5A-8B7C-1D2E3F4A5B6C',
          receiver: valid().receiver,
          items: valid().items,
        },
        catalogs,
        context,
      ),
    ).toEqual([]);
  });
});

describe('validatePaymentRequest', () => {
  it('checks monto, forma, fecha and parcialidad', () => {
    expect(
      validatePaymentRequest(
        { monto: 10.5, formaPago: '03', fechaPago: '2026-11-19T13:05:00', numParcialidad: 2 },
        catalogs,
      ),
    ).toEqual([]);
    expect(
      validatePaymentRequest(
        { monto: 10.555, formaPago: '99', fechaPago: '2026-11-19 13:05', numParcialidad: 0 },
        catalogs,
      ).map((i) => i.path),
    ).toEqual(['/monto', '/formaPago', '/fechaPago', '/numParcialidad']);
  });
});
