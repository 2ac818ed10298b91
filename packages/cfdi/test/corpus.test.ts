import fc from 'fast-check';
import { createVerify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appendTfd,
  buildCreditNoteXml,
  buildInvoiceXml,
  buildNominaXml,
  buildPaymentXml,
  buildTfd,
  cfdiRelacionados,
  installmentTaxGroups,
  invoiceTaxGroups,
  montoCoversPaid,
  sealXml,
  verifySeal,
  type BuiltDocument,
  type Csd,
  type PaymentInput,
} from '../src';
import { D, type Dec } from '../src/decimal/money';
import {
  creditNote,
  foreignPaymentPlan,
  globalInvoice,
  invoice,
  ISSUERS,
  item,
  nomina,
  paymentPlan,
  RECEIVERS,
  type PaymentCurrency,
} from './generators';
import { satArithmeticErrors } from './sat-checks';
import { loadCsd, NOW, requireTools, TFD_XSLT } from './sat-dir';
import { opensslFailures, xmllintFailures, xsltprocMismatches } from './tools';

jest.setTimeout(600_000);

interface StampedTfd {
  file: string;
  cadena: string;
}

interface Doc {
  name: string;
  kind: string;
  file: string;
  xml: string;
  cadena: string;
  sello: string;
  csd: string;
  chargedTotal?: string;
  total?: string;
}

const SEED = 20261121;
const ISSUERS_INPUT = {
  issuer: ISSUERS[0]!.issuer,
  receiver: RECEIVERS[1]!,
  formaPago: '03',
  usoCfdi: 'G01',
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-corpus-'));
const csds = new Map<string, Csd>(ISSUERS.map((i) => [i.csd, loadCsd(i.csd)]));
const docs: Doc[] = [];
const installmentErrors: string[] = [];
const relationErrors: string[] = [];
const tfds: StampedTfd[] = [];

/** Every tenth document is stamped with a MOCK TFD (test CSD as signer): the cadena must not change. */
function maybeStamp(xml: string, sello: string, csd: Csd, index: number): string {
  if (index % 10 !== 0) return xml;
  const uuid = `${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`;
  const built = buildTfd({
    uuid,
    fechaTimbrado: '2026-11-21T12:31:00',
    rfcProvCertif: 'AAA010101AAA',
    selloCFD: sello,
    sat: csd,
  });
  const file = path.join(dir, `tfd-${index}.xml`);
  fs.writeFileSync(file, built.xml);
  tfds.push({ file, cadena: built.cadena });
  return appendTfd(xml, built.xml);
}

function add(kind: string, csd: string, xml: string, built?: BuiltDocument): Doc {
  const sealed = sealXml(xml, csds.get(csd)!);
  const name = `${String(docs.length).padStart(4, '0')}-${kind}`;
  const file = path.join(dir, `${name}.xml`);
  const final = maybeStamp(sealed.xml, sealed.sello, csds.get(csd)!, docs.length);
  fs.writeFileSync(file, final);
  const doc: Doc = { name, kind, file, xml: final, cadena: sealed.cadena, sello: sealed.sello, csd };
  if (built?.computed.chargedTotal) {
    doc.chargedTotal = built.computed.chargedTotal;
    doc.total = built.computed.total;
  }
  docs.push(doc);
  return doc;
}

/**
 * Pays a PPD invoice in installments as the service does: each installment's previous sums are read back from the
 * XML of the earlier ones, after an optional credit note relating the invoice (TipoRelacion 01) whose total is
 * credited; an optional substitute invoice relates it with TipoRelacion 04. Σ BaseDR and Σ ImporteDR must equal
 * each tax group of the invoice (times the share paid, to the cent per installment, when a note credited part of it).
 */
type Plan = (typeof paymentPlan extends fc.Arbitrary<infer T> ? T : never) & {
  invoiceCurrency?: PaymentCurrency;
  paymentCurrency?: PaymentCurrency;
};
const key = (g: { impuesto: string; tipoFactor: string; tasaOCuota?: string }) =>
  `${g.impuesto}|${g.tipoFactor}|${g.tasaOCuota ?? ''}`;

function installmentSums(xmls: string[], uuid: string): Map<string, { base: Dec; importe: Dec }> {
  const sums = new Map<string, { base: Dec; importe: Dec }>();
  for (const t of xmls.flatMap((xml) => installmentTaxGroups(xml, uuid))) {
    const s = sums.get(key(t)) ?? { base: new D(0), importe: new D(0) };
    sums.set(key(t), { base: s.base.plus(t.base), importe: s.importe.plus(t.importe ?? 0) });
  }
  return sums;
}

/** The document fields of a currency: nothing for MXN. */
const currencyFields = (c: PaymentCurrency | undefined) =>
  c && c.moneda !== 'MXN'
    ? { moneda: c.moneda, tipoCambio: c.tipoCambio, currencyDecimals: c.decimales }
    : {};

/**
 * Monto for an ImpPagado paid in another currency, as an integrator computes it: the quotient rounded to MonedaP's
 * decimals (or rounded up when that leaves it below the SAT's band), and the units of the invoice's currency.
 */
function montoFor(impPagado: string, equivalencia: string, decP: number): string {
  const rounded = new D(impPagado).div(equivalencia).toFixed(decP, D.ROUND_HALF_UP);
  if (montoCoversPaid(rounded, impPagado, equivalencia, decP)) return rounded;
  return new D(impPagado).div(equivalencia).toFixed(decP, D.ROUND_UP);
}

function addPayments(plan: Plan): void {
  const { issuer, receiver } = plan.invoice.input;
  const dr = plan.invoiceCurrency;
  const p = plan.paymentCurrency;
  const decDR = dr?.decimales ?? 2;
  const unit = 10 ** decDR;
  const amount = (units: number): string => (units / unit).toFixed(decDR);
  const { cartDiscount, ...invoiceInput } = plan.invoice.input;
  const inv = buildInvoiceXml(
    {
      ...invoiceInput,
      ...(cartDiscount !== undefined
        ? { cartDiscount: Number(new D(cartDiscount).toDecimalPlaces(decDR, D.ROUND_DOWN)) }
        : {}),
      metodoPago: 'PPD',
      formaPago: '99',
      ...currencyFields(dr),
    },
    { now: NOW },
  );
  add('I-PPD', plan.invoice.csd, inv.xml, inv);
  const groups = invoiceTaxGroups(inv.xml);
  const totalUnits = Math.round(Number(inv.computed.total) * unit);
  let creditedUnits = 0;
  if (plan.creditPercent !== undefined) {
    const price = Math.floor((totalUnits * plan.creditPercent) / 100) / unit;
    if (price >= 1 / unit) {
      const note = buildCreditNoteXml(
        {
          issuer,
          receiver: receiver!,
          relatedUuid: plan.uuid,
          tipoRelacion: '01',
          formaPago: '15',
          usoCfdi: 'G02',
          pricesIncludeTax: true,
          ...currencyFields(dr),
          items: [
            {
              productCode: '84111506',
              unitCode: 'ACT',
              description: 'Bonificación',
              quantity: 1,
              unitPrice: price,
            },
          ],
        },
        { now: NOW },
      );
      add('E', plan.invoice.csd, note.xml, note);
      creditedUnits = Math.round(Number(note.computed.total) * unit);
      if (!cfdiRelacionados(note.xml).some((r) => r.tipoRelacion === '01' && r.uuids.includes(plan.uuid)))
        relationErrors.push(`${plan.uuid}: credit note without its relation`);
    }
  }
  if (plan.substitute) {
    const replacement = buildInvoiceXml(
      {
        ...plan.invoice.input,
        metodoPago: 'PPD',
        formaPago: '99',
        relatedDocuments: [{ tipoRelacion: '04', uuids: [plan.uuid] }],
      },
      { now: NOW },
    );
    add('I-PPD', plan.invoice.csd, replacement.xml, replacement);
    if (
      !cfdiRelacionados(replacement.xml).some((r) => r.tipoRelacion === '04' && r.uuids.includes(plan.uuid))
    )
      relationErrors.push(`${plan.uuid}: substitute without its relation`);
  }
  let left = totalUnits - creditedUnits;
  if (left <= 0) return;
  const amounts: number[] = [];
  for (const share of plan.shares) {
    const paid = Math.floor((left * share) / 100);
    if (paid <= 0 || paid >= left) continue;
    amounts.push(paid);
    left -= paid;
  }
  amounts.push(left);
  // EquivalenciaDR: invoice-currency units per payment-currency unit (MXN per MonedaP ÷ MXN per MonedaDR).
  const cross = p !== undefined && p.moneda !== (dr?.moneda ?? 'MXN');
  const equivalencia = cross
    ? new D(p.tipoCambio)
        .div(dr?.tipoCambio ?? '1')
        .toDecimalPlaces(10, D.ROUND_HALF_UP)
        .toFixed()
    : undefined;
  const xmls: string[] = [];
  let saldo = totalUnits - creditedUnits;
  amounts.forEach((units, i) => {
    const previous = [...installmentSums(xmls, plan.uuid).entries()].map(([k, s]) => {
      const [impuesto, tipoFactor, tasaOCuota] = k.split('|');
      return {
        impuesto: impuesto as '002',
        tipoFactor: tipoFactor as 'Tasa',
        ...(tasaOCuota ? { tasaOCuota } : {}),
        base: s.base.toFixed(6),
        ...(tipoFactor === 'Tasa' ? { importe: s.importe.toFixed(6) } : {}),
      };
    });
    const impPagado = amount(units);
    const input: PaymentInput = {
      issuer,
      receiver: receiver!,
      serie: 'P',
      folio: i + 1,
      invoice: {
        uuid: plan.uuid,
        serie: 'A',
        folio: String(i + 100),
        total: inv.computed.total,
        taxGroups: groups,
        ...(dr ? { moneda: dr.moneda, currencyDecimals: dr.decimales } : {}),
      },
      monto: equivalencia ? montoFor(impPagado, equivalencia, p!.decimales) : impPagado,
      ...(p && p.moneda !== 'MXN'
        ? { monedaP: p.moneda, monedaPDecimals: p.decimales, tipoCambioP: p.tipoCambio }
        : {}),
      ...(equivalencia ? { equivalenciaDR: equivalencia, impPagado } : {}),
      numParcialidad: i + 1,
      saldoAnterior: amount(saldo),
      fechaPago: '2026-11-20T12:00:00',
      formaPago: '03',
      ...(creditedUnits > 0 ? { credited: amount(creditedUnits) } : {}),
      previousInstallments: previous,
    };
    const pay = buildPaymentXml(input, { now: NOW });
    add('P', plan.invoice.csd, pay.xml);
    xmls.push(pay.xml);
    saldo -= units;
  });
  const sums = installmentSums(xmls, plan.uuid);
  const share = new D(totalUnits - creditedUnits).div(totalUnits);
  const slack = new D(10).pow(-decDR).times(amounts.length);
  for (const g of groups.filter((group) => !new D(group.base).isZero())) {
    const got = sums.get(key(g)) ?? { base: new D(0), importe: new D(0) };
    const pairs: Array<[string, Dec, string | undefined]> = [
      ['BaseDR', got.base, g.base],
      ['ImporteDR', got.importe, g.importe],
    ];
    for (const [name, sum, invoiceValue] of pairs) {
      if (invoiceValue === undefined) continue;
      const off = sum.minus(new D(invoiceValue).times(share)).abs();
      // A group of a few centavos cannot be split exactly: every installment must carry BaseDR > 0 for it, so one
      // whose cumulative share rounds to what earlier ones carried takes its own proportional share (decisions.md).
      const tiny = new D(g.base).lt(new D(10).pow(-decDR).times(25).times(amounts.length));
      if (creditedUnits === 0 && !tiny ? !off.isZero() : off.gt(slack))
        installmentErrors.push(
          `${plan.uuid} ${key(g)}: Σ ${name} ${sum.toFixed(2)} vs ${invoiceValue} × ${share.toFixed(6)}`,
        );
    }
  }
}

beforeAll(() => {
  requireTools();
  const opts = { seed: SEED };
  for (const { input, csd } of fc.sample(invoice, { ...opts, numRuns: 800 })) {
    const built = buildInvoiceXml(input, { now: NOW });
    add(input.metodoPago === 'PPD' ? 'I-PPD' : 'I-PUE', csd, built.xml, built);
  }
  // Two documents at the 500-item limit, one per price mode.
  for (const [k, list] of fc
    .sample(fc.array(item, { minLength: 500, maxLength: 500 }), { ...opts, numRuns: 2 })
    .entries()) {
    const built = buildInvoiceXml(
      { ...ISSUERS_INPUT, items: list, pricesIncludeTax: k === 0, cartDiscount: 100 },
      { now: NOW },
    );
    add('I-PUE', ISSUERS[0]!.csd, built.xml, built);
  }
  for (const { input, csd } of fc.sample(globalInvoice, { ...opts, numRuns: 300 })) {
    const built = buildInvoiceXml(input, { now: NOW });
    add('I-global', csd, built.xml, built);
  }
  for (const { input, csd } of fc.sample(creditNote, { ...opts, numRuns: 250 })) {
    const built = buildCreditNoteXml(input, { now: NOW });
    add('E', csd, built.xml, built);
  }
  for (const plan of fc.sample(paymentPlan, { ...opts, numRuns: 200 })) addPayments(plan);
  // Foreign currency (issue #40): USD, EUR, JPY (0 decimals), KWD (3) and MXN invoices paid in another currency.
  for (const plan of fc.sample(foreignPaymentPlan, { ...opts, numRuns: 120 })) addPayments(plan);
  for (const { input, csd } of fc.sample(nomina, { ...opts, numRuns: 250 }))
    add('N', csd, buildNominaXml(input, { now: NOW }).xml);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('property corpus (fixed seed)', () => {
  it('has at least 2,000 documents of every kind and feature', () => {
    expect(docs.length).toBeGreaterThanOrEqual(2000);
    const all = docs.map((d) => d.xml).join('\n');
    for (const kind of ['I-PUE', 'I-PPD', 'I-global', 'E', 'P', 'N'])
      expect(docs.some((d) => d.kind === kind)).toBe(true);
    for (const needle of [
      'TasaOCuota="0.160000"',
      'TasaOCuota="0.080000"',
      'TasaOCuota="0.000000"',
      'TipoFactor="Exento"',
      'Impuesto="003"',
      'Descuento=',
      'NumeroPedimento=',
      'ClaveProdServ="78101800"',
      'Periodicidad="05"',
      'TipoRelacion="03"',
      'SubsidioAlEmpleo',
      'HorasExtra',
      'MonedaP="USD"',
      'MonedaP="JPY"',
      'MonedaP="KWD"',
      'MonedaDR="JPY"',
      'MonedaDR="KWD"',
      'MonedaDR="EUR"',
    ]) {
      expect(all).toContain(needle);
    }
    expect(
      Math.max(...docs.map((d) => (d.xml.match(/<cfdi:Concepto /g) ?? []).length)),
    ).toBeGreaterThanOrEqual(400);
    // Cross-currency payments carry an EquivalenciaDR other than 1; credit notes in foreign currency their TipoCambio.
    expect(all).toMatch(/EquivalenciaDR="(?!1")[0-9.]+"/);
    expect(docs.some((d) => d.kind === 'E' && /Moneda="(?!MXN)[A-Z]{3}" TipoCambio=/.test(d.xml))).toBe(true);
  });

  it('every document passes the SAT arithmetic checks', () => {
    const failures = docs.flatMap((d) => satArithmeticErrors(d.xml).map((e) => `${d.name}: ${e}`));
    expect(failures).toEqual([]);
  });

  it('tax-inclusive documents total exactly what the customer was charged', () => {
    expect(docs.filter((d) => d.chargedTotal !== undefined).length).toBeGreaterThan(500);
    const off = docs
      .filter((d) => d.chargedTotal !== undefined && d.chargedTotal !== d.total)
      .map((d) => `${d.name}: ${d.total} vs ${d.chargedTotal}`);
    expect(off).toEqual([]);
  });

  it('installments add up to the invoice: Σ BaseDR and Σ ImporteDR equal each tax group (net of credit notes in force)', () => {
    expect(installmentErrors).toEqual([]);
  });

  it('credit notes relate their invoice (01) and substitutes the invoice they replace (04)', () => {
    const all = docs.map((d) => d.xml).join('\n');
    expect(all).toContain('TipoRelacion="04"');
    expect(all).toContain('TipoRelacion="01"');
    expect(relationErrors).toEqual([]);
  });

  it('every document validates against the SAT XSD (xmllint)', async () => {
    expect(await xmllintFailures(docs.map((d) => d.file))).toEqual([]);
  });

  it('every TS cadena is byte-identical to xsltproc with cadenaoriginal_4_0.xslt', async () => {
    const expected = new Map(docs.map((d) => [d.file, d.cadena]));
    expect(
      await xsltprocMismatches(
        docs.map((d) => d.file),
        expected,
      ),
    ).toEqual([]);
  });

  it('every seal verifies with node crypto and openssl dgst -sha256 -verify', async () => {
    const bad: string[] = [];
    for (const d of docs) {
      const key = new X509Certificate(csds.get(d.csd)!.certificateDer).publicKey;
      if (!createVerify('RSA-SHA256').update(d.cadena, 'utf8').verify(key, d.sello, 'base64'))
        bad.push(d.name);
    }
    expect(bad).toEqual([]);
    for (const [name, csd] of csds) {
      const pem = new X509Certificate(csd.certificateDer).publicKey
        .export({ type: 'spki', format: 'pem' })
        .toString();
      const mine = docs
        .filter((d) => d.csd === name)
        .map((d) => ({ name: d.name, cadena: d.cadena, sello: d.sello }));
      expect(await opensslFailures(dir, mine, pem)).toEqual([]);
    }
  });

  it('verifySeal (parse + recompute + verify) accepts every document, stamped or not', () => {
    expect(docs.map((d) => ({ name: d.name, ...verifySeal(d.xml) })).filter((r) => !r.valid)).toEqual([]);
  });

  it('every tenth document carries a TFD whose cadena is byte-identical to xsltproc with cadenaoriginal_TFD_1_1.xslt', async () => {
    expect(tfds.length).toBeGreaterThan(200);
    expect(
      await xsltprocMismatches(
        tfds.map((t) => t.file),
        new Map(tfds.map((t) => [t.file, t.cadena])),
        TFD_XSLT,
      ),
    ).toEqual([]);
  });
});
