import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { computeInvoice, validateInvoiceRequest, type InvoiceRequest } from '../src';
import { tsvCatalogs } from './catalogs';
import { NOW } from './sat-dir';

/**
 * issue #23: the §2.3 search used to count steps in JS numbers, which stop advancing above 2^53, so quantity 1e18
 * with a tax-inclusive price spun for ever. Each of these must come back at once with a validation error.
 */
const catalogs = tsvCatalogs();
const HUGE = [1e18, 1.4e17, 1e21, 1e308];
const item = (quantity: number) => ({
  productCode: '43211503',
  unitCode: 'H87',
  description: 'x',
  quantity,
  unitPrice: 1,
});

describe('engine bounds', () => {
  it('refuses each huge quantity at once, in a child process a frozen event loop cannot take down', () => {
    // In-process, a search that never ends would hang jest itself; a child with a deadline fails instead.
    const script = `
      const { computeInvoice } = require(${JSON.stringify(path.resolve(__dirname, '../src/pure.ts'))});
      const out = ${JSON.stringify(HUGE)}.map((quantity) => {
        try { computeInvoice({ items: [${JSON.stringify(item(0))}].map((i) => ({ ...i, quantity })) }); return 'computed'; }
        catch (err) { return err.constructor.name + ': ' + err.message; }
      });
      process.stdout.write(JSON.stringify(out));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.error).toBeUndefined();
    const answers = JSON.parse(child.stdout) as string[];
    expect(answers).toHaveLength(HUGE.length);
    for (const answer of answers) expect(answer).toMatch(/^RangeError: items\[0\]/);
  });

  it.each(HUGE)('reports quantity %d as a 400-style issue on its field', (quantity) => {
    const req: InvoiceRequest = {
      formaPago: '03',
      usoCfdi: 'G03',
      receiver: {
        rfc: 'URE180429TM6',
        name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
        zip: '86991',
        regimenFiscal: '601',
      },
      items: [item(quantity)],
    };
    const started = Date.now();
    const issues = validateInvoiceRequest(req, catalogs, {
      issuer: { rfc: 'EKU9003173C9', regimenFiscal: '601', zip: '42501' },
      now: NOW,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(issues.map((i) => i.path)).toEqual(['/items/0/quantity']);
  });

  it('still adjusts large but writable amounts to the cent exactly (steps beyond 2^53 micro-units)', () => {
    // 9e15 × 1.01 tax-inclusive: the adjustment counts more than 2^53 micro-pesos from zero.
    const computed = computeInvoice({ items: [{ ...item(9_000_000_000_000), unitPrice: 101.01 }] as never });
    expect(computed.total).toBe(computed.chargedTotal);
    expect(computed.total).toBe('909090000000000.00');
  });
});

describe('one-cent adjustment placement (issue #22 item 9)', () => {
  const line = (quantity: number, unitPrice: number, extra: Record<string, unknown> = {}) => ({
    productCode: '01010101',
    unitCode: 'H87',
    description: 'x',
    quantity,
    unitPrice,
    ...extra,
  });
  it.each([
    ['exempt', { taxable: false }, [line(37, 911.83, { iepsRate: 0.08 }), line(28, 119.06)], undefined],
    ['exempt, with a cart discount', { taxable: false }, [line(38, 248.7), line(16, 631.59)], 30.86],
    [
      '0 %',
      { ivaRate: 0 },
      [line(27, 387.27), line(26, 139.28, { iepsRate: 0.08 }), line(27, 456.96, { iepsRate: 0.08 })],
      undefined,
    ],
  ])(
    'moves a taxed line, never the %s 1,000.00 one, and still matches the charge',
    (_name, untaxed, taxed, cartDiscount) => {
      const computed = computeInvoice({
        items: [line(1, 1000, untaxed), ...taxed],
        ...(cartDiscount ? { cartDiscount } : {}),
      } as never);
      expect(computed.total).toBe(computed.chargedTotal);
      expect(computed.concepts[0]).toMatchObject({ valorUnitario: '1000.000000', importe: '1000.000000' });
    },
  );
});
