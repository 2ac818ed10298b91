import fc from 'fast-check';
import {
  buildInvoiceXml,
  computeInvoice,
  IEPS_RATES,
  invoiceTaxGroups,
  validateInvoiceRequest,
  type InvoiceItem,
} from '../src';
import { dec, fixed, ZERO } from '../src/decimal/money';
import { tsvCatalogs } from './catalogs';
import { ISSUERS, RECEIVERS } from './generators';
import { satArithmeticErrors } from './sat-checks';
import { NOW } from './sat-dir';

jest.setTimeout(300_000);

const catalogs = tsvCatalogs();

/** Edge-biased amounts: micro quantities and prices, large ones, 6-decimal values. */
const micro = (maxScaled: number, scale: number) =>
  fc.integer({ min: 1, max: maxScaled }).map((n) => n / scale);
const edgeItem: fc.Arbitrary<InvoiceItem> = fc
  .record({
    productCode: fc.constant('01010101'),
    unitCode: fc.constant('H87'),
    description: fc.constant('x'),
    quantity: fc.oneof(micro(1000, 1_000_000), micro(1_000_000, 1000), fc.integer({ min: 1, max: 100_000 })),
    unitPrice: fc.oneof(
      micro(5000, 1_000_000),
      micro(100_000_000, 100),
      fc.integer({ min: 1, max: 1_000_000 }),
    ),
    taxable: fc.boolean(),
    ivaRate: fc.constantFrom(0, 0.08, 0.16),
    iepsRate: fc.option(fc.constantFrom(...IEPS_RATES.map(Number)), { nil: undefined }),
  })
  .filter((i) => Number(i.quantity) * Number(i.unitPrice) >= 0.01);

describe('tax engine properties (no external tools, shrinking on failure)', () => {
  it('builder and validator agree; every built invoice passes the SAT arithmetic checks and matches the charged total', () => {
    fc.assert(
      fc.property(
        fc.array(edgeItem, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 9999 }), { nil: undefined }),
        (items, inclusive, discountPerTenThousand) => {
          const gross = items.reduce((a, i) => a + Number(i.quantity) * Number(i.unitPrice), 0);
          const cart =
            discountPerTenThousand === undefined
              ? undefined
              : Math.floor((gross * discountPerTenThousand) / 100) / 100;
          const request = {
            receiver: RECEIVERS[0]!,
            items,
            pricesIncludeTax: inclusive,
            formaPago: '03',
            usoCfdi: 'G03',
            ...(cart && cart > 0 ? { cartDiscount: cart } : {}),
          };
          const issues = validateInvoiceRequest(request, catalogs, {
            issuer: { ...ISSUERS[0]!.issuer, borderRegionStimulus: true },
          });
          let built;
          try {
            built = buildInvoiceXml({ ...request, issuer: ISSUERS[0]!.issuer }, { now: NOW });
          } catch (err) {
            // The validator must announce every refusal of the builder (here: a discount that would zero a line).
            expect(issues.map((i) => i.path)).not.toEqual([]);
            expect((err as Error).message).toContain('cartDiscount');
            return;
          }
          expect(issues).toEqual([]);
          const { xml, computed } = built;
          expect(satArithmeticErrors(xml)).toEqual([]);
          // What a payment complement reads back from the stamped XML is what the engine wrote.
          expect(invoiceTaxGroups(xml)).toEqual(computed.traslados);
          if (computed.chargedTotal) expect(computed.total).toBe(computed.chargedTotal);
        },
      ),
      { seed: 424242, numRuns: 1500 },
    );
  });

  it('net prices: SubTotal and each IVA group are the exact sums rounded once, as an accountant computes them', () => {
    const netItem = edgeItem.map(({ iepsRate: _ieps, ...item }) => item);
    fc.assert(
      fc.property(fc.array(netItem, { minLength: 1, maxLength: 40 }), (items) => {
        const computed = computeInvoice({ pricesIncludeTax: false, items });
        const amount = (i: InvoiceItem) => dec(i.quantity).times(dec(i.unitPrice));
        expect(computed.subTotal).toBe(
          fixed(
            items.reduce((a, i) => a.plus(amount(i)), ZERO),
            2,
          ),
        );
        for (const group of computed.traslados.filter((g) => g.tipoFactor === 'Tasa')) {
          const taxed = items.filter(
            (i) => i.taxable !== false && dec(i.ivaRate ?? 0.16).equals(dec(group.tasaOCuota!)),
          );
          expect(group.importe).toBe(
            fixed(
              taxed.reduce((a, i) => a.plus(amount(i).times(dec(group.tasaOCuota!))), ZERO),
              2,
            ),
          );
        }
      }),
      { seed: 424242, numRuns: 1000 },
    );
  });

  it('a currency with 0 or 3 decimals (JPY, KWD): totals written with exactly that many, the charged total reached, SAT arithmetic holds', () => {
    const priced = fc.record({
      quantity: fc.integer({ min: 1, max: 50 }),
      units: fc.integer({ min: 1, max: 10_000_000 }),
      ivaRate: fc.constantFrom(0, 0.08, 0.16),
    });
    const written = (text: string) => (text.includes('.') ? text.split('.')[1]!.length : 0);
    for (const [moneda, places] of [
      ['JPY', 0],
      ['KWD', 3],
    ] as const) {
      fc.assert(
        fc.property(fc.array(priced, { minLength: 1, maxLength: 8 }), fc.boolean(), (lines, inclusive) => {
          const items = lines.map((l) => ({
            productCode: '01010101',
            unitCode: 'H87',
            description: 'x',
            quantity: l.quantity,
            unitPrice: (l.units / 10 ** places).toFixed(places),
            ivaRate: l.ivaRate,
          }));
          const input = { currencyDecimals: places, pricesIncludeTax: inclusive, items };
          const computed = computeInvoice(input);
          expect([written(computed.subTotal), written(computed.total)]).toEqual([places, places]);
          if (inclusive) expect(computed.total).toBe(computed.chargedTotal);
          const { xml } = buildInvoiceXml(
            {
              ...input,
              issuer: ISSUERS[0]!.issuer,
              receiver: RECEIVERS[0]!,
              formaPago: '03',
              usoCfdi: 'G03',
              moneda,
              tipoCambio: '0.123456',
            },
            { now: NOW },
          );
          expect(satArithmeticErrors(xml)).toEqual([]);
        }),
        { seed: 20261128, numRuns: 300 },
      );
    }
  });
});
