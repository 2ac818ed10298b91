import fc from 'fast-check';
import {
  IEPS_RATES,
  type CreditNoteInput,
  type InvoiceInput,
  type InvoiceItem,
  type Issuer,
  type Receiver,
} from '../src';

export const ISSUERS: Array<{ issuer: Issuer; csd: string }> = [
  {
    issuer: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    csd: 'EKU9003173C9-csd',
  },
  {
    issuer: { rfc: 'CACX7605101P8', legalName: 'XOCHILT CASAS CHAVEZ', regimenFiscal: '612', zip: '36257' },
    csd: 'CACX7605101P8-csd',
  },
];

export const RECEIVERS: Receiver[] = [
  { rfc: 'URE180429TM6', name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', zip: '86991', regimenFiscal: '601' },
  { rfc: 'H&E951128469', name: 'HERRERIA & ELECTRICOS', zip: '06002', regimenFiscal: '601' },
  { rfc: 'OÑO120726RX3', name: 'ORGANICOS ÑAVEZ OSORIO', zip: '40501', regimenFiscal: '601' },
  { rfc: 'S&S051221SE2', name: 'S & SOFTWARE', zip: '76022', regimenFiscal: '601' },
  { rfc: 'FUNK671228PH6', name: 'KARLA FUENTE NOLASCO', zip: '01160', regimenFiscal: '612' },
  { rfc: 'IAÑL750210963', name: 'LUIS IAN ÑUZCO', zip: '85256', regimenFiscal: '612' },
];

const PRODUCT_CODES = [
  '43211503',
  '50202306',
  '01010101',
  '86121503',
  '53102400',
  '50192100',
  '25172504',
  '10101500',
];
const UNIT_CODES = ['H87', 'E48', 'ACT', 'KGM', 'LTR', 'XBX'];

/** Text with the characters that stress escaping and normalize-space: accents, Ñ, &, <, ", character references and
 * entities that must stay as written, tabs and line breaks, runs of spaces, NBSP, emoji. */
const text = (max: number): fc.Arbitrary<string> =>
  fc
    .array(
      fc.constantFrom(
        'a',
        'Z',
        'ñ',
        'Ñ',
        'é',
        'ü',
        '&',
        '<',
        '>',
        '"',
        "'",
        ' ',
        '  ',
        '\t',
        '\n',
        '\r',
        '&#124;',
        '&amp;',
        '&lt;b&gt;',
        '\u00a0',
        '7',
        '-',
        '/',
        '😀',
        '°',
        'ß',
      ),
      { minLength: 1, maxLength: max },
    )
    .map((parts) => parts.join(''))
    .filter((s) => s.replace(/[ \t\r\n]/g, '').length > 0);

const digits15 = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 15, maxLength: 15 })
  .map((d) => d.join(''));
const pedimento = fc
  .tuple(digits15, fc.constantFrom('plain', 'spaced', 'sat'))
  .map(([d, style]) =>
    style === 'plain'
      ? d
      : style === 'spaced'
        ? `${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4, 8)} ${d.slice(8)}`
        : `${d.slice(0, 2)}  ${d.slice(2, 4)}  ${d.slice(4, 8)}  ${d.slice(8)}`,
  );

const quantity = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 50 }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 99999 }).map((n) => n / 1000) },
  { weight: 1, arbitrary: fc.integer({ min: 51, max: 2000 }) },
);
const unitPrice = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 2_000_000 }).map((c) => c / 100) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 99_999_999 }).map((c) => c / 10000) },
);

export const item: fc.Arbitrary<InvoiceItem> = fc.record(
  {
    productCode: fc.constantFrom(...PRODUCT_CODES),
    unitCode: fc.constantFrom(...UNIT_CODES),
    description: text(12),
    quantity,
    unitPrice,
    unit: fc.option(fc.constantFrom('Pieza', 'Servicio', 'Caja & más'), { nil: undefined }),
    noIdentificacion: fc.option(fc.constantFrom('SKU-1', 'ÑA&01', 'X  Y'), { nil: undefined }),
    sku: fc.option(fc.constantFrom('OLD-SKU', 'B<2>'), { nil: undefined }),
    taxable: fc.option(fc.boolean(), { nil: undefined }),
    ivaRate: fc.option(fc.constantFrom(0, 0.08, 0.16), { nil: undefined }),
    iepsRate: fc.option(fc.constantFrom(...IEPS_RATES.map(Number)), { nil: undefined, freq: 3 }),
    pedimentos: fc.option(
      fc.array(pedimento, { minLength: 1, maxLength: 3 }).chain((p) => fc.constant([...p, ...p.slice(0, 1)])),
      { nil: undefined, freq: 4 },
    ),
  },
  { requiredKeys: ['productCode', 'unitCode', 'description', 'quantity', 'unitPrice'] },
);

/** 1–500 items, most documents small so the suite stays fast. */
export const items = fc.oneof(
  { weight: 20, arbitrary: fc.array(item, { minLength: 1, maxLength: 8 }) },
  { weight: 4, arbitrary: fc.array(item, { minLength: 9, maxLength: 60 }) },
  { weight: 1, arbitrary: fc.array(item, { minLength: 100, maxLength: 500, size: 'max' }) },
);

const concepts = fc.record({
  items,
  shipping: fc.option(fc.record({ amount: unitPrice, ivaRate: fc.constantFrom(0, 0.08, 0.16) }), {
    nil: undefined,
  }),
  discountShare: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined, freq: 2 }),
  pricesIncludeTax: fc.boolean(),
});

/** Cart discount as a share of the discountable gross so it is always acceptable. */
function cartDiscount(list: InvoiceItem[], share: number | undefined): number | undefined {
  if (share === undefined) return undefined;
  const gross = list.reduce((a, i) => a + Number(i.quantity) * Number(i.unitPrice), 0);
  const d = Math.floor(gross * share) / 100;
  return d > 0 ? d : undefined;
}

const header = fc.record({
  serie: fc.option(fc.constantFrom('A', 'FAC', 'Ñ-1'), { nil: undefined }),
  folio: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
  folioText: fc.option(fc.constantFrom('F-001', 'Ticket & Co'), { nil: undefined, freq: 4 }),
});

export const invoice: fc.Arbitrary<{ input: InvoiceInput; csd: string }> = fc
  .record({
    who: fc.constantFrom(...ISSUERS),
    receiver: fc.constantFrom(...RECEIVERS),
    c: concepts,
    h: header,
    ppd: fc.boolean(),
    forma: fc.constantFrom('01', '03', '04', '28'),
  })
  .map(({ who, receiver, c, h, ppd, forma }) => ({
    csd: who.csd,
    input: {
      ...h,
      issuer: who.issuer,
      receiver,
      items: c.items,
      pricesIncludeTax: c.pricesIncludeTax,
      ...(c.shipping ? { shipping: c.shipping } : {}),
      ...(cartDiscount(c.items, c.discountShare)
        ? { cartDiscount: cartDiscount(c.items, c.discountShare) }
        : {}),
      metodoPago: ppd ? 'PPD' : 'PUE',
      formaPago: ppd ? '99' : forma,
      usoCfdi: 'G03',
    },
  }));

export const globalInvoice: fc.Arbitrary<{ input: InvoiceInput; csd: string }> = fc
  .record({
    c: concepts,
    h: header,
    periodicidad: fc.constantFrom('01', '02', '03', '04', '05'),
    month: fc.integer({ min: 1, max: 12 }),
  })
  .map(({ c, h, periodicidad, month }) => {
    const bimonthly = periodicidad === '05';
    // Periodicidad 05 is only for RIF (621) issuers: use the persona física CSD with 621.
    const who = bimonthly
      ? { ...ISSUERS[1]!, issuer: { ...ISSUERS[1]!.issuer, regimenFiscal: '621' } }
      : ISSUERS[0]!;
    return {
      csd: who.csd,
      input: {
        ...h,
        kind: 'global' as const,
        issuer: who.issuer,
        items: c.items,
        pricesIncludeTax: c.pricesIncludeTax,
        formaPago: '01',
        informacionGlobal: {
          periodicidad: periodicidad as '01',
          meses: String(bimonthly ? 12 + Math.ceil(month / 2) : month).padStart(2, '0'),
          anio: 2026,
        },
      },
    };
  });

const uuid = fc.uuid().map((u) => u.toUpperCase());

export const creditNote: fc.Arbitrary<{ input: CreditNoteInput; csd: string }> = fc
  .record({
    who: fc.constantFrom(...ISSUERS),
    receiver: fc.constantFrom(...RECEIVERS),
    list: fc.array(item, { minLength: 1, maxLength: 4 }),
    inc: fc.boolean(),
    rel: fc.constantFrom('01', '03'),
    uuid,
    h: header,
  })
  .map(({ who, receiver, list, inc, rel, uuid: u, h }) => ({
    csd: who.csd,
    input: {
      ...h,
      issuer: who.issuer,
      receiver,
      items: list,
      pricesIncludeTax: inc,
      relatedUuid: u,
      tipoRelacion: rel as '01',
      formaPago: '15',
      usoCfdi: 'G02',
    },
  }));

/**
 * A PPD invoice paid in 1–4 installments (shares in percent of what is left), sometimes after a credit note relating
 * it (creditPercent of its total), sometimes replaced by a substitute invoice (TipoRelacion 04).
 */
export const paymentPlan = fc.record({
  invoice,
  uuid,
  shares: fc.array(fc.integer({ min: 5, max: 95 }), { minLength: 0, maxLength: 3 }),
  creditPercent: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined, freq: 3 }),
  substitute: fc.boolean(),
});

/** Currencies of the foreign-currency payment plans: c_Moneda decimals 2, 0 and 3, and MXN (TipoCambio 1). */
export const PAYMENT_CURRENCIES = [
  { moneda: 'MXN', decimales: 2, tipoCambio: '1' },
  { moneda: 'USD', decimales: 2, tipoCambio: '17.253400' },
  { moneda: 'EUR', decimales: 2, tipoCambio: '18.9' },
  { moneda: 'JPY', decimales: 0, tipoCambio: '0.115213' },
  { moneda: 'KWD', decimales: 3, tipoCambio: '56.781234' },
] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/** A payment plan whose invoice and payments may be in any two of PAYMENT_CURRENCIES (not both MXN). */
export const foreignPaymentPlan = fc
  .record({
    invoice,
    uuid,
    shares: fc.array(fc.integer({ min: 5, max: 95 }), { minLength: 0, maxLength: 3 }),
    creditPercent: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined, freq: 3 }),
    substitute: fc.constant(false),
    invoiceCurrency: fc.constantFrom(...PAYMENT_CURRENCIES),
    paymentCurrency: fc.constantFrom(...PAYMENT_CURRENCIES),
  })
  .filter((p) => p.invoiceCurrency.moneda !== 'MXN' || p.paymentCurrency.moneda !== 'MXN');

export { nomina } from './nomina-generators';
