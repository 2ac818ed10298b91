import fc from 'fast-check';
import {
  buildInvoiceXml,
  buildPaymentXml,
  installmentTaxGroups,
  invoiceTaxGroups,
  type PaymentInput,
  type TaxGroup,
} from '../src';
import { ceil, dec, trunc, writtenDecimals, ZERO } from '../src/decimal/money';
import { invoice } from './generators';
import { NOW } from './sat-dir';

jest.setTimeout(300_000);

const key = (g: Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'>) =>
  `${g.impuesto}|${g.tipoFactor}|${g.tasaOCuota ?? ''}`;

/** Installments in percent of what is left (the last one settles), and an optional credit note in force, in percent of the total. */
const plan = fc.record({
  invoice,
  uuid: fc.uuid().map((u) => u.toUpperCase()),
  shares: fc.array(fc.oneof(fc.integer({ min: 1, max: 99 }), fc.constant(0)), { minLength: 0, maxLength: 5 }),
  creditPercent: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined, freq: 3 }),
});

/** Sums what the payment complements say, group by group, read back from their XML as the service does. */
function addUp(
  xmls: string[],
  uuid: string,
): Map<string, { base: ReturnType<typeof dec>; importe: ReturnType<typeof dec> }> {
  const sums = new Map<string, { base: ReturnType<typeof dec>; importe: ReturnType<typeof dec> }>();
  for (const t of xmls.flatMap((xml) => installmentTaxGroups(xml, uuid))) {
    const s = sums.get(key(t)) ?? { base: ZERO, importe: ZERO };
    sums.set(key(t), { base: s.base.plus(t.base), importe: s.importe.plus(t.importe ?? 0) });
  }
  return sums;
}

describe('payment complements add up to the invoice (issue #22 item 2)', () => {
  it('Σ BaseDR and Σ ImporteDR of every installment plan equal each tax group of the invoice, every ImporteDR inside its band', () => {
    fc.assert(
      fc.property(plan, ({ invoice: { input }, uuid, shares, creditPercent }) => {
        const inv = buildInvoiceXml({ ...input, metodoPago: 'PPD', formaPago: '99' }, { now: NOW });
        const groups = invoiceTaxGroups(inv.xml);
        const totalCents = Math.round(Number(inv.computed.total) * 100);
        const creditedCents =
          creditPercent === undefined ? 0 : Math.floor((totalCents * creditPercent) / 100);
        let left = totalCents - creditedCents;
        if (left <= 0) return;
        const amounts: number[] = [];
        for (const s of shares) {
          const cents = Math.floor((left * s) / 100);
          if (cents <= 0 || cents >= left) continue;
          amounts.push(cents);
          left -= cents;
        }
        amounts.push(left);
        const xmls: string[] = [];
        let saldo = totalCents - creditedCents;
        amounts.forEach((cents, i) => {
          const previous = [...addUp(xmls, uuid).entries()].map(([k, s]) => {
            const [impuesto, tipoFactor, tasaOCuota] = k.split('|');
            return {
              impuesto: impuesto as '002',
              tipoFactor: tipoFactor as 'Tasa',
              ...(tasaOCuota ? { tasaOCuota } : {}),
              base: s.base.toFixed(6),
              ...(tipoFactor === 'Tasa' ? { importe: s.importe.toFixed(6) } : {}),
            };
          });
          const payment: PaymentInput = {
            issuer: input.issuer,
            receiver: input.receiver!,
            serie: 'P',
            folio: i + 1,
            invoice: { uuid, serie: 'A', folio: '1', total: inv.computed.total, taxGroups: groups },
            monto: (cents / 100).toFixed(2),
            numParcialidad: i + 1,
            saldoAnterior: (saldo / 100).toFixed(2),
            fechaPago: '2026-11-20T12:00:00',
            formaPago: '03',
            credited: (creditedCents / 100).toFixed(2),
            previousInstallments: previous,
          };
          const built = buildPaymentXml(payment, { now: NOW });
          for (const t of built.computed.traslados) {
            expect(dec(t.base).isPositive() && !dec(t.base).isZero()).toBe(true);
            if (t.importe === undefined) continue;
            const half = dec(10).pow(-writtenDecimals(t.base)).div(2);
            const rate = dec(t.tasaOCuota!);
            expect(dec(t.importe).gte(trunc(dec(t.base).minus(half).times(rate), 2))).toBe(true);
            expect(dec(t.importe).lte(ceil(dec(t.base).plus(half).minus('1e-12').times(rate), 2))).toBe(true);
          }
          xmls.push(built.xml);
          saldo -= cents;
        });
        const sums = addUp(xmls, uuid);
        const share = dec(totalCents - creditedCents).div(totalCents);
        for (const g of groups.filter((gr) => !dec(gr.base).isZero())) {
          const got = sums.get(key(g));
          if (creditedCents === 0) {
            // Paid in full: exactly the invoice's group, base and tax.
            expect({
              group: key(g),
              base: got?.base.toFixed(2),
              importe: g.importe === undefined ? undefined : got?.importe.toFixed(2),
            }).toEqual({
              group: key(g),
              base: dec(g.base).toFixed(2),
              importe: g.importe === undefined ? undefined : dec(g.importe).toFixed(2),
            });
          } else {
            // Net of a credit note: the invoice's group times the share paid, within a centavo per installment (a group
            // of a few centavos may need each installment's own share to keep BaseDR > 0).
            const slack = dec('0.01').times(amounts.length);
            expect(got!.base.minus(dec(g.base).times(share)).abs().lte(slack)).toBe(true);
            if (g.importe !== undefined)
              expect(got!.importe.minus(dec(g.importe).times(share)).abs().lte(slack)).toBe(true);
          }
        }
      }),
      { seed: 22022, numRuns: 200 },
    );
  });

  it('one installment of a 10.03125 net invoice carries its IVA 1.61, not 1.60 (the reported case)', () => {
    const inv = buildInvoiceXml(
      {
        issuer: {
          rfc: 'EKU9003173C9',
          legalName: 'ESCUELA KEMPER URGATE',
          regimenFiscal: '601',
          zip: '42501',
        },
        receiver: {
          rfc: 'URE180429TM6',
          name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
          zip: '86991',
          regimenFiscal: '601',
        },
        items: [
          { productCode: '01010101', unitCode: 'H87', description: 'x', quantity: 1, unitPrice: 10.03125 },
        ],
        pricesIncludeTax: false,
        metodoPago: 'PPD',
        formaPago: '99',
        usoCfdi: 'G03',
      },
      { now: NOW },
    );
    expect(inv.computed).toMatchObject({ total: '11.64', totalImpuestosTrasladados: '1.61' });
    const built = buildPaymentXml(
      {
        issuer: {
          rfc: 'EKU9003173C9',
          legalName: 'ESCUELA KEMPER URGATE',
          regimenFiscal: '601',
          zip: '42501',
        },
        receiver: {
          rfc: 'URE180429TM6',
          name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
          zip: '86991',
          regimenFiscal: '601',
        },
        invoice: {
          uuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
          total: '11.64',
          taxGroups: invoiceTaxGroups(inv.xml),
        },
        monto: '11.64',
        numParcialidad: 1,
        saldoAnterior: '11.64',
        fechaPago: '2026-11-20T12:00:00',
        formaPago: '03',
        previousInstallments: [],
      },
      { now: NOW },
    );
    expect(built.computed.traslados).toEqual([
      { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.160000', base: '10.03', importe: '1.61' },
    ]);
    expect(built.computed.totales).toMatchObject({
      TotalTrasladosBaseIVA16: '10.03',
      TotalTrasladosImpuestoIVA16: '1.61',
    });
  });
});
