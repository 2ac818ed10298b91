import { checkCreditNoteRequest, checkInvoiceRequest } from '../src';
import { tsvCatalogs } from './catalogs';
import { ISSUERS, RECEIVERS } from './generators';
import { NOW } from './sat-dir';

const catalogs = tsvCatalogs();
const { issuer } = ISSUERS[0]!;
const receiver = RECEIVERS[0]!;
const items = [
  { productCode: '84111506', unitCode: 'E48', description: 'Servicio', quantity: 1, unitPrice: 116 },
];
const invoice = { receiver, usoCfdi: 'G03', formaPago: '03', items };
const published = { rate: '17.2345', publishedOn: '2026-11-27' };

/** The paths of the issues of an invoice in `moneda` at `tipoCambio`, with USD's rate of the day published or not. */
function invoiceIssues(moneda: string, tipoCambio: unknown, publishedRate = published) {
  return checkInvoiceRequest({ ...invoice, moneda, tipoCambio }, catalogs, {
    issuer,
    now: NOW,
    publishedRate,
  }).issues;
}

describe('the c_Moneda variation band (CFDI40118)', () => {
  it('accepts any rate within 5 % of the published one, both ends included', () => {
    // 17.2345 × 0.95 = 16.372775 and × 1.05 = 18.096225: exact at 6 decimals.
    for (const rate of [17.2345, 16.372775, 18.096225, '17.3', 16.5])
      expect(invoiceIssues('USD', rate)).toEqual([]);
  });

  it('refuses a rate outside it on /tipoCambio, naming the band and the day', () => {
    for (const rate of [16.372774, 18.096226, 1.72345, 172.345]) {
      const issues = invoiceIssues('USD', rate);
      expect(issues.map((i) => i.path)).toEqual(['/tipoCambio']);
      expect(issues[0]!.message).toContain('from 16.372775 to 18.096225');
      expect(issues[0]!.message).toContain('2026-11-27');
      expect(issues[0]!.message).toContain('CFDI40118');
    }
  });

  it('widens an end that falls between micro-units rather than refuse what the SAT accepts', () => {
    // 20.123457 × 0.95 = 19.11728415 and × 1.05 = 21.12962985: widened to whole micro-units, 19.117284…21.12963.
    const rate = { rate: '20.123457', publishedOn: '2026-11-27' };
    expect(invoiceIssues('EUR', 19.117284, rate)).toEqual([]);
    expect(invoiceIssues('EUR', 21.12963, rate)).toEqual([]);
    expect(invoiceIssues('EUR', 19.117283, rate).map((i) => i.path)).toEqual(['/tipoCambio']);
    expect(invoiceIssues('EUR', 21.129631, rate).map((i) => i.path)).toEqual(['/tipoCambio']);
  });

  it('checks nothing when no rate is published, and never MXN', () => {
    expect(
      checkInvoiceRequest({ ...invoice, moneda: 'USD', tipoCambio: 1.5 }, catalogs, { issuer, now: NOW })
        .issues,
    ).toEqual([]);
    expect(invoiceIssues('MXN', 1)).toEqual([]);
  });

  it('applies to credit notes in a foreign currency too', () => {
    const note = {
      relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      receiver,
      formaPago: '15',
      items,
      moneda: 'USD',
    };
    const context = { issuer, now: NOW, publishedRate: published };
    expect(checkCreditNoteRequest({ ...note, tipoCambio: 17.5 }, catalogs, context).issues).toEqual([]);
    expect(
      checkCreditNoteRequest({ ...note, tipoCambio: 19 }, catalogs, context).issues.map((i) => i.path),
    ).toEqual(['/tipoCambio']);
  });
});
