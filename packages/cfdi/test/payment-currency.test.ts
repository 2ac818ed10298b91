import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildCreditNoteXml,
  buildInvoiceXml,
  buildPaymentXml,
  checkCreditNoteRequest,
  checkPaymentRequest,
  invoiceTaxGroups,
  sealXml,
  type PaymentInput,
} from '../src';
import { tsvCatalogs } from './catalogs';
import { ISSUERS, RECEIVERS } from './generators';
import { satArithmeticErrors } from './sat-checks';
import { loadCsd, NOW, requireTools } from './sat-dir';
import { xmllintFailures, xsltprocMismatches } from './tools';

// Issue #40: Pagos 2.0 in foreign currency (cfdi40.md §5.3–§5.5) and credit notes in the invoice's currency.

const catalogs = tsvCatalogs();
const { issuer } = ISSUERS[0]!;
const receiver = RECEIVERS[0]!;
const csd = loadCsd(ISSUERS[0]!.csd);
const UUID = '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D';

/** A PPD invoice of one 116-unit line with IVA 16 % included, in `moneda`. */
function invoiceIn(moneda: string, tipoCambio: string, decimals: number, unitPrice = 116) {
  return buildInvoiceXml(
    {
      issuer,
      receiver,
      metodoPago: 'PPD',
      formaPago: '99',
      usoCfdi: 'G03',
      items: [{ productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice }],
      ...(moneda !== 'MXN' ? { moneda, tipoCambio, currencyDecimals: decimals } : {}),
    },
    { now: NOW },
  );
}

function payment(
  invoice: ReturnType<typeof invoiceIn>,
  moneda: string,
  decimals: number,
  fields: Partial<PaymentInput>,
): ReturnType<typeof buildPaymentXml> {
  return buildPaymentXml(
    {
      issuer,
      receiver,
      invoice: {
        uuid: UUID,
        total: invoice.computed.total,
        taxGroups: invoiceTaxGroups(invoice.xml),
        moneda,
        currencyDecimals: decimals,
      },
      monto: '0',
      numParcialidad: 1,
      saldoAnterior: invoice.computed.total,
      fechaPago: '2026-11-20T12:00:00',
      formaPago: '03',
      ...fields,
    },
    { now: NOW },
  );
}

const attributes = (xml: string, element: string): Record<string, string> => {
  const tag = new RegExp(`<${element}\\b([^>]*)>`).exec(xml)?.[1] ?? '';
  return Object.fromEntries([...tag.matchAll(/([A-Za-z0-9]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
};

describe('payment complements in foreign currency (builder)', () => {
  const usd = invoiceIn('USD', '17.25', 2);
  const jpy = invoiceIn('JPY', '0.115213', 0, 11600);
  const kwd = invoiceIn('KWD', '56.781234', 3, 116.116);
  const built = {
    'USD invoice paid in MXN': payment(usd, 'USD', 2, {
      monto: '1000.00',
      equivalenciaDR: '0.058',
      impPagado: '58.00',
    }),
    'USD invoice paid in USD': payment(usd, 'USD', 2, {
      monto: '116.00',
      monedaP: 'USD',
      tipoCambioP: '17.3',
    }),
    'USD invoice paid in EUR (the guide example)': payment(usd, 'USD', 2, {
      monto: '100.00',
      monedaP: 'EUR',
      tipoCambioP: '18.9',
      equivalenciaDR: '1.0465711361',
      impPagado: '104.66',
    }),
    'JPY invoice paid in USD': payment(jpy, 'JPY', 0, {
      monto: '77.20',
      monedaP: 'USD',
      tipoCambioP: '17.3',
      equivalenciaDR: '150.25',
    }),
    'KWD invoice paid in MXN': payment(kwd, 'KWD', 3, {
      monto: '6593.13',
      equivalenciaDR: '0.0176114',
    }),
  };

  it('writes MonedaP, TipoCambioP, MonedaDR and EquivalenciaDR, the balances in the invoice currency and the Totales in MXN', () => {
    const usdMxn = built['USD invoice paid in MXN'].xml;
    expect(attributes(usdMxn, 'pago20:Pago')).toMatchObject({
      MonedaP: 'MXN',
      TipoCambioP: '1',
      Monto: '1000.00',
    });
    expect(attributes(usdMxn, 'pago20:DoctoRelacionado')).toMatchObject({
      MonedaDR: 'USD',
      EquivalenciaDR: '0.058',
      ImpSaldoAnt: '116.00',
      ImpPagado: '58.00',
      ImpSaldoInsoluto: '58.00',
    });
    expect(attributes(usdMxn, 'pago20:TrasladoDR')).toMatchObject({ BaseDR: '50.00', ImporteDR: '8.00' });
    expect(attributes(usdMxn, 'pago20:TrasladoP')).toMatchObject({ BaseP: '862.07', ImporteP: '137.93' });
    expect(attributes(usdMxn, 'pago20:Totales')).toEqual({
      TotalTrasladosBaseIVA16: '862.07',
      TotalTrasladosImpuestoIVA16: '137.93',
      MontoTotalPagos: '1000.00',
    });

    const usdUsd = built['USD invoice paid in USD'].xml;
    expect(attributes(usdUsd, 'pago20:Pago')).toMatchObject({
      MonedaP: 'USD',
      TipoCambioP: '17.3',
      Monto: '116.00',
    });
    expect(attributes(usdUsd, 'pago20:DoctoRelacionado')).toMatchObject({
      MonedaDR: 'USD',
      EquivalenciaDR: '1',
    });
    expect(attributes(usdUsd, 'pago20:Totales')).toEqual({
      TotalTrasladosBaseIVA16: '1730.00',
      TotalTrasladosImpuestoIVA16: '276.80',
      MontoTotalPagos: '2006.80',
    });

    // The guide's example (cfdi40.md §5.4): 100 EUR paying 104.66 USD at 1.0465711361.
    const eur = built['USD invoice paid in EUR (the guide example)'].xml;
    expect(attributes(eur, 'pago20:DoctoRelacionado')).toMatchObject({
      MonedaDR: 'USD',
      EquivalenciaDR: '1.0465711361',
      ImpPagado: '104.66',
      ImpSaldoInsoluto: '11.34',
    });
    expect(attributes(eur, 'pago20:Totales')).toMatchObject({ MontoTotalPagos: '1890.00' });

    // JPY has no decimals: ImpPagado is monto × EquivalenciaDR rounded to yen; KWD has three.
    expect(attributes(built['JPY invoice paid in USD'].xml, 'pago20:DoctoRelacionado')).toMatchObject({
      MonedaDR: 'JPY',
      ImpSaldoAnt: '11600',
      ImpPagado: '11599',
      ImpSaldoInsoluto: '1',
    });
    expect(attributes(built['KWD invoice paid in MXN'].xml, 'pago20:DoctoRelacionado')).toMatchObject({
      MonedaDR: 'KWD',
      ImpSaldoAnt: '116.116',
      ImpPagado: '116.114',
      ImpSaldoInsoluto: '0.002',
    });
  });

  it('every complement passes the SAT checks, the SAT XSD and the SAT XSLT (cadena byte-identical)', async () => {
    requireTools();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-pago-fx-'));
    const expected = new Map<string, string>();
    const failures: string[] = [];
    const credit = buildCreditNoteXml(
      {
        issuer,
        receiver,
        relatedUuid: UUID,
        formaPago: '15',
        moneda: 'USD',
        tipoCambio: '17.4',
        currencyDecimals: 2,
        items: [
          {
            productCode: '84111506',
            unitCode: 'ACT',
            description: 'Bonificación',
            quantity: 1,
            unitPrice: 11.6,
          },
        ],
      },
      { now: NOW },
    );
    const all = {
      ...Object.fromEntries(Object.entries(built).map(([k, v]) => [k, v.xml])),
      'USD credit note': credit.xml,
    };
    Object.entries(all).forEach(([name, xml], i) => {
      const sealed = sealXml(xml, csd);
      const file = path.join(dir, `${i}.xml`);
      fs.writeFileSync(file, sealed.xml);
      expected.set(file, sealed.cadena);
      failures.push(...satArithmeticErrors(sealed.xml).map((e) => `${name}: ${e}`));
    });
    expect(attributes(credit.xml, 'cfdi:Comprobante')).toMatchObject({ Moneda: 'USD', TipoCambio: '17.4' });
    expect(failures).toEqual([]);
    expect(await xmllintFailures([...expected.keys()])).toEqual([]);
    expect(await xsltprocMismatches([...expected.keys()], expected)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the builder refuses what the SAT refuses: TipoCambioP, EquivalenciaDR, ImpPagado beyond Monto', () => {
    const base = { monto: '1000.00', equivalenciaDR: '0.058' };
    expect(() => payment(usd, 'USD', 2, { ...base, equivalenciaDR: undefined })).toThrow(
      /equivalenciaDR is required/,
    );
    expect(() => payment(usd, 'USD', 2, { monto: '10.00', monedaP: 'USD' })).toThrow(
      /tipoCambioP is required/,
    );
    expect(() =>
      payment(usd, 'USD', 2, { monto: '10.00', monedaP: 'USD', tipoCambioP: '17', equivalenciaDR: '2' }),
    ).toThrow(/equivalenciaDR must be 1/);
    expect(() => payment(usd, 'USD', 2, { ...base, impPagado: '59.00' })).toThrow(/CRP20217/);
  });
});

describe('payment request rules (each a 400 with its field path)', () => {
  const paths = (req: Record<string, unknown>, moneda = 'USD') =>
    checkPaymentRequest({ monto: 100, formaPago: '03', ...req }, catalogs, { moneda }).issues.map(
      (i) => i.path,
    );

  it('accepts the same currency, another one with EquivalenciaDR, and MXN as before', () => {
    expect(checkPaymentRequest({ monto: 100, formaPago: '03' }, catalogs).payment).toEqual({
      monto: '100.00',
      monedaP: 'MXN',
      monedaPDecimals: 2,
      impPagado: '100.00',
      invoiceDecimals: 2,
    });
    expect(
      checkPaymentRequest({ monto: 58, formaPago: '03', monedaP: 'USD', tipoCambioP: 17.3 }, catalogs, {
        moneda: 'USD',
      }).payment,
    ).toEqual({
      monto: '58.00',
      monedaP: 'USD',
      monedaPDecimals: 2,
      tipoCambioP: '17.3',
      impPagado: '58.00',
      invoiceDecimals: 2,
    });
    expect(
      checkPaymentRequest({ monto: 1000, formaPago: '03', equivalenciaDR: 0.058 }, catalogs, {
        moneda: 'USD',
      }).payment,
    ).toMatchObject({ monto: '1000.00', monedaP: 'MXN', equivalenciaDR: '0.058', impPagado: '58.00' });
    expect(
      checkPaymentRequest(
        { monto: 77.2, formaPago: '03', monedaP: 'USD', tipoCambioP: 17.3, equivalenciaDR: 150.25 },
        catalogs,
        {
          moneda: 'JPY',
        },
      ).payment,
    ).toMatchObject({ impPagado: '11599', invoiceDecimals: 0 });
  });

  it.each<[string, Record<string, unknown>, string, string?]>([
    ['MonedaP XXX (CRP20213)', { monedaP: 'XXX' }, '/monedaP'],
    ['MonedaP not in c_Moneda', { monedaP: 'ZZZ' }, '/monedaP'],
    ['TipoCambioP missing with USD (CRP20214)', { monedaP: 'USD' }, '/tipoCambioP'],
    [
      'TipoCambioP other than 1 with MXN (CRP20215)',
      { tipoCambioP: 17, equivalenciaDR: 0.058 },
      '/tipoCambioP',
    ],
    ['TipoCambioP with 7 decimals', { monedaP: 'USD', tipoCambioP: 17.1234567 }, '/tipoCambioP'],
    ['EquivalenciaDR missing across currencies (CRP20237)', {}, '/equivalenciaDR'],
    [
      'EquivalenciaDR other than 1 in one currency (CRP20238)',
      { equivalenciaDR: 2 },
      '/equivalenciaDR',
      'MXN',
    ],
    ['EquivalenciaDR with 11 decimals', { equivalenciaDR: 0.05797101449 }, '/equivalenciaDR'],
    [
      'Monto beyond the decimals of MonedaP (JPY)',
      { monedaP: 'JPY', tipoCambioP: 0.115, equivalenciaDR: 0.0066, monto: 10.5 },
      '/monto',
    ],
    ['Monto beyond the decimals of MonedaP (MXN 2)', { monto: 10.0001, equivalenciaDR: 0.058 }, '/monto'],
    ["ImpPagado beyond the invoice's decimals", { equivalenciaDR: 0.058, impPagado: 5.801 }, '/impPagado'],
    [
      'ImpPagado ÷ EquivalenciaDR over Monto beyond the tolerance (CRP20217)',
      { equivalenciaDR: 0.058, impPagado: 5.9 },
      '/impPagado',
    ],
    ['Monto left unapplied beyond the tolerance', { equivalenciaDR: 0.058, impPagado: 5.7 }, '/impPagado'],
    ['ImpPagado other than Monto in one currency', { impPagado: 90 }, '/impPagado', 'MXN'],
    [
      'monto × EquivalenciaDR rounding to 0 in the invoice currency',
      { equivalenciaDR: 0.00001 },
      '/equivalenciaDR',
      'JPY',
    ],
  ])('%s', (_rule, req, where, moneda = 'USD') => {
    expect(paths(req, moneda)).toEqual([where]);
  });

  it('accepts an ImpPagado whose quotient exceeds Monto inside the SAT band (CRP20217), and refuses it beyond', () => {
    // 104.67 / 1.0465711361 = 100.0113…, truncated 100.01 > 100.00, but LI = 100.00 ≤ Monto ≤ LS: accepted;
    // 104.70 gives LI = 100.03 > 100.00: refused.
    const req = {
      monto: 100,
      formaPago: '03',
      monedaP: 'EUR',
      tipoCambioP: 18.9,
      equivalenciaDR: 1.0465711361,
    };
    const issues = (impPagado: number) =>
      checkPaymentRequest({ ...req, impPagado }, catalogs, { moneda: 'USD' }).issues.map((i) => i.path);
    expect(issues(104.66)).toEqual([]);
    expect(issues(104.67)).toEqual([]);
    expect(issues(104.7)).toEqual(['/impPagado']);
  });
});

describe('credit notes in foreign currency', () => {
  const request = {
    relatedUuid: UUID,
    receiver,
    formaPago: '15',
    items: [
      { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 11.6 },
    ],
  };
  const context = { issuer, now: NOW };

  it('take moneda and tipoCambio like invoices, rounding to the currency decimals', () => {
    expect(
      checkCreditNoteRequest({ ...request, moneda: 'USD', tipoCambio: 17.4 }, catalogs, context).currency,
    ).toEqual({
      moneda: 'USD',
      decimales: 2,
      tipoCambio: '17.4',
    });
    expect(
      checkCreditNoteRequest({ ...request, moneda: 'JPY', tipoCambio: 0.115 }, catalogs, context).computed
        ?.total,
    ).toBe('12');
  });

  it('refuse a missing rate, a rate with MXN and XXX on their fields', () => {
    const paths = (req: Record<string, unknown>) =>
      checkCreditNoteRequest({ ...request, ...req }, catalogs, context).issues.map((i) => i.path);
    expect(paths({ moneda: 'USD' })).toEqual(['/tipoCambio']);
    expect(paths({ moneda: 'MXN', tipoCambio: 17 })).toEqual(['/tipoCambio']);
    expect(paths({ moneda: 'XXX' })).toEqual(['/moneda']);
  });
});
