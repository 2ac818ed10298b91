import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal } from '@cfdi/cfdi';
import { receivablesAging } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

// Issue #40: payment complements (Pagos 2.0) and credit notes in foreign currency, on the real stack.

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack({ CANCELLATION_FIRST_POLL_SECONDS: '1', CANCELLATION_MAX_POLL_SECONDS: '1' });
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const post = (key: string, url: string, body: unknown) =>
  stack.api.request('POST', url, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const get = (key: string, url: string) => stack.api.request('GET', url, { key });
const pay = (account: Account, invoiceId: string, body: Record<string, unknown>) =>
  post(account.testKey, `/v1/invoices/${invoiceId}/payments`, body);
const saldo = async (account: Account, invoiceId: string) =>
  (await get(account.testKey, `/v1/invoices/${invoiceId}`)).body.saldoPendiente;
const receivableTotals = async (account: Account) =>
  stack.api.orm.em
    .fork()
    .execute(
      'select rfc, round(open_mxn, 2)::text as open_mxn, invoices from receivable_totals where account_id = ? order by rfc',
      [account.accountId],
    );
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;

/** A PPD invoice of 116.00 USD at 17.25 MXN per USD: one line of 116 with IVA 16 % included (Base 100, IVA 16). */
async function usdInvoice(account: Account): Promise<{ id: string; uuid: string }> {
  const res = await post(
    account.testKey,
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      moneda: 'USD',
      tipoCambio: 17.25,
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 116 },
      ],
    }),
  );
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ currency: 'USD', total: 116, saldoPendiente: 116, metodoPago: 'PPD' });
  return res.body;
}

/** The SAT XSD (CFDI + Pagos 2.0 + TFD) accepts it and our cadena original equals the SAT XSLT's. */
function assertSatConformant(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-pago-fx-')), 'pago.xml');
  fs.writeFileSync(file, xml);
  const sat = defaultSatDir();
  execFileSync('xmllint', ['--noout', '--schema', path.join(sat, 'xml', 'cfdi40-bundle.xsd'), file], {
    stdio: 'pipe',
  });
  const xslt = path.join(
    sat,
    'xml/www.sat.gob.mx/sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt',
  );
  expect(cadenaOriginal(xml)).toBe(
    execFileSync('xsltproc', [xslt, file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8'),
  );
}

const attributes = (xml: string, element: string): Record<string, string> => {
  const tag = new RegExp(`<${element}\\b([^>]*)>`).exec(xml)?.[1] ?? '';
  return Object.fromEntries([...tag.matchAll(/([A-Za-z0-9]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
};

it('pays a USD invoice in MXN and then in USD: balances in USD, Totales in MXN, SAT-valid complements', async () => {
  const account = await stampingAccount(stack);
  const invoice = await usdInvoice(account);

  // 1,000.00 MXN at 0.058 USD per MXN pays 58.00 USD of the invoice.
  const inPesos = await pay(account, invoice.id, {
    monto: 1000,
    formaPago: '03',
    monedaP: 'MXN',
    equivalenciaDR: 0.058,
  });
  expect(inPesos.status).toBe(201);
  expect(inPesos.body).toMatchObject({
    status: 'stamped',
    numParcialidad: 1,
    monto: 1000,
    currency: 'MXN',
    tipoCambioP: null,
    invoiceCurrency: 'USD',
    equivalenciaDR: 0.058,
    saldoAnterior: 116,
    impPagado: 58,
    saldoInsoluto: 58,
  });
  expect(await saldo(account, invoice.id)).toBe(58);
  const first = await stampedXml(inPesos.body.id);
  assertSatConformant(first);
  expect(attributes(first, 'pago20:Pago')).toMatchObject({
    MonedaP: 'MXN',
    TipoCambioP: '1',
    Monto: '1000.00',
  });
  expect(attributes(first, 'pago20:DoctoRelacionado')).toMatchObject({
    IdDocumento: invoice.uuid,
    MonedaDR: 'USD',
    EquivalenciaDR: '0.058',
    NumParcialidad: '1',
    ImpSaldoAnt: '116.00',
    ImpPagado: '58.00',
    ImpSaldoInsoluto: '58.00',
  });
  // TrasladoDR in USD (half the invoice's group); TrasladoP in MXN: ÷ 0.058.
  expect(attributes(first, 'pago20:TrasladoDR')).toMatchObject({ BaseDR: '50.00', ImporteDR: '8.00' });
  expect(attributes(first, 'pago20:TrasladoP')).toMatchObject({ BaseP: '862.07', ImporteP: '137.93' });
  expect(attributes(first, 'pago20:Totales')).toMatchObject({
    MontoTotalPagos: '1000.00',
    TotalTrasladosBaseIVA16: '862.07',
    TotalTrasladosImpuestoIVA16: '137.93',
  });

  // The rest in dollars at 17.30: EquivalenciaDR 1, the Totales converted with TipoCambioP.
  const inDollars = await pay(account, invoice.id, {
    monto: 58,
    formaPago: '03',
    monedaP: 'USD',
    tipoCambioP: 17.3,
  });
  expect(inDollars.status).toBe(201);
  expect(inDollars.body).toMatchObject({
    numParcialidad: 2,
    monto: 58,
    currency: 'USD',
    tipoCambioP: 17.3,
    invoiceCurrency: 'USD',
    equivalenciaDR: 1,
    saldoAnterior: 58,
    impPagado: 58,
    saldoInsoluto: 0,
  });
  expect(await saldo(account, invoice.id)).toBe(0);
  const second = await stampedXml(inDollars.body.id);
  assertSatConformant(second);
  expect(attributes(second, 'pago20:Pago')).toMatchObject({
    MonedaP: 'USD',
    TipoCambioP: '17.3',
    Monto: '58.00',
  });
  expect(attributes(second, 'pago20:DoctoRelacionado')).toMatchObject({
    MonedaDR: 'USD',
    EquivalenciaDR: '1',
    NumParcialidad: '2',
    ImpSaldoAnt: '58.00',
    ImpPagado: '58.00',
    ImpSaldoInsoluto: '0.00',
  });
  expect(attributes(second, 'pago20:TrasladoP')).toMatchObject({ BaseP: '50.00', ImporteP: '8.00' });
  expect(attributes(second, 'pago20:Totales')).toMatchObject({
    MontoTotalPagos: '1003.40',
    TotalTrasladosBaseIVA16: '865.00',
    TotalTrasladosImpuestoIVA16: '138.40',
  });

  const settled = await pay(account, invoice.id, {
    monto: 1,
    formaPago: '03',
    monedaP: 'USD',
    tipoCambioP: 17.3,
  });
  expect(settled.status).toBe(400);

  // Cancelled newest first, each gives back its ImpPagado in USD (not its monto: 1,000 is pesos).
  for (const [payment, back] of [
    [inDollars.body, 58],
    [inPesos.body, 116],
  ] as const) {
    const cancel = await post(account.testKey, `/v1/payments/${payment.id}/cancel`, { motivo: '02' });
    expect(cancel.status).toBe(202);
    const accepted = await fetch(`${stack.sandbox.url}/sandbox/receiver/${payment.uuid}/accept`, {
      method: 'POST',
    });
    expect(accepted.status).toBe(200);
    await waitFor(
      async () =>
        (await get(account.testKey, `/v1/payments/${payment.id}`)).body.status === 'cancelled'
          ? true
          : undefined,
      { what: 'the payment cancelled' },
    );
    expect(await saldo(account, invoice.id)).toBe(back);
  }
}, 180_000);

/** Each payment rule, refused with a 400 naming its field: [rule, body, path]. */
const RULES: Array<[string, Record<string, unknown>, string]> = [
  ['MonedaP is never XXX (CRP20213)', { monedaP: 'XXX' }, '/monedaP'],
  ['MonedaP a c_Moneda key', { monedaP: 'ZZZ' }, '/monedaP'],
  ['TipoCambioP required unless MXN (CRP20214)', { monedaP: 'USD' }, '/tipoCambioP'],
  [
    'TipoCambioP absent or 1 with MXN (CRP20215)',
    { monedaP: 'MXN', tipoCambioP: 17, equivalenciaDR: 0.058 },
    '/tipoCambioP',
  ],
  ['EquivalenciaDR required when the currencies differ (CRP20237)', { monedaP: 'MXN' }, '/equivalenciaDR'],
  [
    'EquivalenciaDR 1 when they are the same (CRP20238)',
    { monedaP: 'USD', tipoCambioP: 17.3, equivalenciaDR: 1.5 },
    '/equivalenciaDR',
  ],
  ['EquivalenciaDR up to 10 decimals', { monedaP: 'MXN', equivalenciaDR: 0.05797101449 }, '/equivalenciaDR'],
  [
    'Monto in the decimals of MonedaP (JPY 0)',
    { monedaP: 'JPY', tipoCambioP: 0.115, equivalenciaDR: 0.0066, monto: 10.5 },
    '/monto',
  ],
  [
    "ImpPagado in the invoice's decimals",
    { monedaP: 'MXN', equivalenciaDR: 0.058, impPagado: 5.801 },
    '/impPagado',
  ],
  [
    'ImpPagado ÷ EquivalenciaDR beyond Monto and its tolerance (CRP20217)',
    { monedaP: 'MXN', equivalenciaDR: 0.058, impPagado: 5.9 },
    '/impPagado',
  ],
  [
    'Monto left unapplied beyond the tolerance',
    { monedaP: 'MXN', equivalenciaDR: 0.058, impPagado: 5.7 },
    '/impPagado',
  ],
  ['ImpPagado = Monto in one currency', { monedaP: 'USD', tipoCambioP: 17.3, impPagado: 90 }, '/impPagado'],
  [
    "more than the invoice's balance, in its currency",
    { monedaP: 'MXN', equivalenciaDR: 0.058, monto: 2001 },
    '/equivalenciaDR',
  ],
];

it('refuses each rule of a foreign-currency payment with a 400 on its field, and stamps nothing', async () => {
  const account = await stampingAccount(stack);
  const invoice = await usdInvoice(account);
  const failed: string[] = [];
  for (const [rule, change, where] of RULES) {
    const res = await pay(account, invoice.id, { monto: 100, formaPago: '03', ...change });
    const paths = (res.body.errors ?? []).map((e: { path: string }) => e.path);
    if (res.status !== 400 || !paths.includes(where))
      failed.push(`${rule}: ${res.status} ${JSON.stringify(res.body.errors ?? res.body)}`);
  }
  expect(failed).toEqual([]);
  expect(await saldo(account, invoice.id)).toBe(116);
  const listed = await get(account.testKey, `/v1/payments?invoiceId=${invoice.id}`);
  expect(listed.body.data).toEqual([]);
}, 120_000);

it("credits a USD invoice in USD: the note's currency is the invoice's, its balance and the aging follow", async () => {
  const account = await stampingAccount(stack);
  const invoice = await usdInvoice(account);
  const note = (change: Record<string, unknown>) =>
    post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      relatedInvoiceId: invoice.id,
      formaPago: '15',
      items: [
        {
          productCode: '84111506',
          unitCode: 'ACT',
          description: 'Bonificación',
          quantity: 1,
          unitPrice: 11.6,
        },
      ],
      ...change,
    });

  // The currency defaults to the invoice's, so its rate is required; another currency is refused.
  const noRate = await note({});
  expect(noRate.status).toBe(400);
  expect(noRate.body.errors.map((e: { path: string }) => e.path)).toEqual(['/tipoCambio']);
  const pesos = await note({ moneda: 'MXN' });
  expect(pesos.status).toBe(400);
  expect(pesos.body.errors).toEqual([{ path: '/moneda', message: expect.stringContaining('must be USD') }]);

  const credited = await note({ tipoCambio: 17.4 });
  expect(credited.status).toBe(201);
  expect(credited.body).toMatchObject({
    kind: 'credit_note',
    currency: 'USD',
    tipoCambio: 17.4,
    total: 11.6,
  });
  const xml = await stampedXml(credited.body.id);
  assertSatConformant(xml);
  expect(attributes(xml, 'cfdi:Comprobante')).toMatchObject({
    TipoDeComprobante: 'E',
    Moneda: 'USD',
    TipoCambio: '17.4',
    Total: '11.60',
  });
  expect(await saldo(account, invoice.id)).toBe(104.4);

  // The aging counts the USD balance at the invoice's TipoCambio: 104.40 × 17.25 = 1,800.90 MXN.
  const scope = { accountId: account.accountId, livemode: false, keyId: 'test', merchantIds: null };
  const aging = await receivablesAging(stack.api.orm.em.fork(), scope);
  expect(aging).toEqual([expect.objectContaining({ rfc: 'URE180429TM6', invoices: 1, total: '1800.90' })]);
  // The largest receivers come from the totals the stamp and the note moved; a user limited to merchants sums
  // the invoices themselves: the same answer.
  expect(await receivableTotals(account)).toEqual([
    { rfc: 'URE180429TM6', open_mxn: '1800.90', invoices: 1 },
  ]);
  const limited = { ...scope, merchantIds: [account.merchantId] };
  expect(await receivablesAging(stack.api.orm.em.fork(), limited)).toEqual(aging);

  // A payment after the note carries the balance net of it: ImpSaldoAnt 104.40.
  const paid = await pay(account, invoice.id, {
    monto: 104.4,
    formaPago: '03',
    monedaP: 'USD',
    tipoCambioP: 17.3,
  });
  expect(paid.status).toBe(201);
  expect(paid.body).toMatchObject({ saldoAnterior: 104.4, impPagado: 104.4, saldoInsoluto: 0 });
  assertSatConformant(await stampedXml(paid.body.id));
  // Paid in full: nobody owes anything, and the receiver's total is back to zero.
  expect(await receivablesAging(stack.api.orm.em.fork(), scope)).toEqual([]);
  expect(await receivableTotals(account)).toEqual([{ rfc: 'URE180429TM6', open_mxn: '0.00', invoices: 0 }]);
}, 120_000);
