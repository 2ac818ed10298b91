import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal } from '@cfdi/cfdi';
import { waitFor } from '@cfdi/testkit';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { keyForAnotherMerchant } from './restricted-key';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack({ CANCELLATION_FIRST_POLL_SECONDS: '1', CANCELLATION_MAX_POLL_SECONDS: '1' });
}, 60_000);
afterAll(async () => stack?.close(), 60_000);
afterEach(async () => {
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
});

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const post = (key: string, url: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', url, { key, headers: { 'idempotency-key': ik }, body });
const get = (key: string, url: string) => stack.api.request('GET', url, { key });
const pay = (account: Account, invoiceId: string, body: Record<string, unknown>, ik?: string) =>
  post(account.testKey, `/v1/invoices/${invoiceId}/payments`, body, ik);
const saldo = async (account: Account, invoiceId: string) =>
  (await get(account.testKey, `/v1/invoices/${invoiceId}`)).body.saldoPendiente;
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;
const ledger = async (accountId: string) =>
  (await stack.api.orm.em
    .fork()
    .execute(
      `select type, reference_type, reference_id from transactions where account_id = ? and livemode = false and type <> 'seed' order by seq`,
      [accountId],
    )) as { type: string; reference_type: string; reference_id: string }[];

/** A PPD invoice of 1,160.00: one line of 1,160 with IVA 16 % included (Base 1,000.00, IVA 160.00). */
async function ppdInvoice(account: Account): Promise<{ id: string; uuid: string }> {
  const res = await post(
    account.testKey,
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      metodoPago: 'PPD',
      formaPago: '99',
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Servidor', quantity: 1, unitPrice: 1160 },
      ],
    }),
  );
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ total: 1160, saldoPendiente: 1160 });
  return res.body;
}

/** The SAT XSD (CFDI + Pagos 2.0 + TFD) accepts it and our cadena original equals the SAT XSLT's. */
function assertSatConformant(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-pago-')), 'pago.xml');
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

const attribute = (xml: string, element: string, name: string) =>
  new RegExp(`<pago20:${element}\\b[^>]*\\b${name}="([^"]+)"`).exec(xml)?.[1];

it('pays a PPD invoice in three installments with server-computed balances and SAT-valid complements', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);

  const first = await pay(account, invoice.id, { monto: 400, formaPago: '03' });
  expect(first.status).toBe(201);
  expect(first.body).toMatchObject({
    id: expect.stringMatching(/^pay_/),
    object: 'payment',
    status: 'stamped',
    invoiceId: invoice.id,
    merchantId: account.merchantId,
    uuid: expect.stringMatching(/^[0-9A-F-]{36}$/),
    numParcialidad: 1,
    monto: 400,
    formaPago: '03',
    currency: 'MXN',
    fechaPago: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    saldoAnterior: 1160,
    saldoInsoluto: 760,
    cancellation: null,
  });
  expect(await saldo(account, invoice.id)).toBe(760);

  const outOfSequence = await pay(account, invoice.id, { monto: 100, formaPago: '03', numParcialidad: 3 });
  expect(outOfSequence.status).toBe(400);
  expect(outOfSequence.body.errors).toEqual([
    { path: '/numParcialidad', message: expect.stringContaining('next installment of this invoice is 2') },
  ]);

  const second = await pay(account, invoice.id, {
    monto: 300.55,
    formaPago: '28',
    numParcialidad: 2,
    fechaPago: '2026-11-20T12:00:00',
  });
  expect(second.status).toBe(201);
  expect(second.body).toMatchObject({
    numParcialidad: 2,
    saldoAnterior: 760,
    saldoInsoluto: 459.45,
    fechaPago: '2026-11-20T12:00:00',
  });

  const overpay = await pay(account, invoice.id, { monto: 459.46, formaPago: '03' });
  expect(overpay.status).toBe(400);
  expect(overpay.body.errors).toEqual([
    { path: '/monto', message: expect.stringContaining('outstanding balance of 459.45') },
  ]);

  const third = await pay(account, invoice.id, { monto: 459.45, formaPago: '03' });
  expect(third.status).toBe(201);
  expect(third.body).toMatchObject({ numParcialidad: 3, saldoAnterior: 459.45, saldoInsoluto: 0 });
  expect(await saldo(account, invoice.id)).toBe(0);

  const settled = await pay(account, invoice.id, { monto: 1, formaPago: '03' });
  expect(settled.status).toBe(400);
  expect(settled.body.errors[0].message).toMatch(/already settled/);

  // Each complement: Pagos 2.0 relating the invoice, taxes proportional to the payment, receiver with CP01.
  const payments = [first.body, second.body, third.body];
  const xmls = await Promise.all(payments.map((p) => stampedXml(p.id)));
  for (const [i, xml] of xmls.entries()) {
    assertSatConformant(xml);
    expect(xml).toContain('TipoDeComprobante="P"');
    expect(xml).toMatch(/UsoCFDI="CP01"/);
    expect(attribute(xml, 'DoctoRelacionado', 'IdDocumento')).toBe(invoice.uuid);
    expect(attribute(xml, 'DoctoRelacionado', 'NumParcialidad')).toBe(String(i + 1));
    expect(attribute(xml, 'DoctoRelacionado', 'ObjetoImpDR')).toBe('02');
  }
  expect(xmls.map((x) => attribute(x, 'TrasladoDR', 'BaseDR'))).toEqual(['344.83', '259.09', '396.08']);
  // The last installment absorbs the rounding: bases and taxes add up to the invoice's exactly.
  const sum = (name: string) =>
    xmls.reduce((acc, x) => acc + Math.round(Number(attribute(x, 'TrasladoDR', name)) * 100), 0) / 100;
  expect(sum('BaseDR')).toBe(1000);
  expect(sum('ImporteDR')).toBe(160);
  expect(attribute(xmls[0]!, 'Totales', 'MontoTotalPagos')).toBe('400.00');

  // Files like any stamped document; list with filters.
  const shown = await waitFor(
    async () => {
      const current = (await get(account.testKey, `/v1/payments/${first.body.id}`)).body;
      return current.files.status === 'ready' ? current : undefined;
    },
    { what: 'the payment files' },
  );
  expect(shown.files.xmlUrl).toMatch(/\/files\//);
  const list = await get(account.testKey, `/v1/payments?invoiceId=${invoice.id}&limit=2`);
  expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([third.body.id, second.body.id]);
  expect(list.body.has_more).toBe(true);
  const next = await get(
    account.testKey,
    `/v1/payments?invoiceId=${invoice.id}&starting_after=${second.body.id}`,
  );
  expect(next.body.data.map((p: { id: string }) => p.id)).toEqual([first.body.id]);
  const byUuid = await get(
    account.testKey,
    `/v1/payments?uuid=${second.body.uuid.toLowerCase()}&status=stamped&merchantId=${account.merchantId}`,
  );
  expect(byUuid.body.data.map((p: { id: string }) => p.id)).toEqual([second.body.id]);
  const since = (
    await get(
      account.testKey,
      `/v1/payments?createdFrom=${encodeURIComponent(second.body.createdAt)}&createdTo=${encodeURIComponent(second.body.createdAt)}`,
    )
  ).body.data;
  expect(since.map((p: { id: string }) => p.id)).toEqual([second.body.id]);

  // Installments are cancelled newest first: the second cannot go while the third (whose ImpSaldoAnt assumes it) is live.
  const early = await post(account.testKey, `/v1/payments/${second.body.id}/cancel`, { motivo: '02' });
  expect(early.status).toBe(400);
  expect(early.body.errors).toEqual([
    { path: '/params/id', message: expect.stringContaining(`followed by 3 (${third.body.id})`) },
  ]);

  // Cancelling the third (a P document needs the receiver's acceptance) gives its amount back once cancelled …
  const cancel = await post(account.testKey, `/v1/payments/${third.body.id}/cancel`, { motivo: '02' });
  expect(cancel.status).toBe(202);
  expect(cancel.body).toMatchObject({
    status: 'cancel_pending',
    cancellation: { motivo: '02', status: 'pending', acuse: { codigo: '201', estatus: 'En proceso' } },
  });
  expect(await saldo(account, invoice.id)).toBe(0);
  // … and until its outcome no installment is added: its ImpSaldoAnt would depend on that outcome.
  const meanwhile = await pay(account, invoice.id, { monto: 1, formaPago: '03' });
  expect(meanwhile.status).toBe(400);
  expect(meanwhile.body.errors).toEqual([
    { path: '/params/id', message: expect.stringContaining('is being cancelled') },
  ]);
  expect(
    (await fetch(`${stack.sandbox.url}/sandbox/receiver/${third.body.uuid}/accept`, { method: 'POST' }))
      .status,
  ).toBe(200);
  await waitFor(
    async () =>
      (await get(account.testKey, `/v1/payments/${third.body.id}`)).body.status === 'cancelled'
        ? true
        : undefined,
    { what: 'the payment cancelled' },
  );
  expect(await saldo(account, invoice.id)).toBe(459.45);

  // A new payment takes its place in the sequence, with the balance the cancelled one had.
  const replacement = await pay(account, invoice.id, { monto: 459.45, formaPago: '03' });
  expect(replacement.status).toBe(201);
  expect(replacement.body).toMatchObject({ numParcialidad: 3, saldoAnterior: 459.45, saldoInsoluto: 0 });
  assertSatConformant(await stampedXml(replacement.body.id));
  expect(await saldo(account, invoice.id)).toBe(0);

  // One consume per stamp and per cancellation.
  expect((await ledger(account.accountId)).map((t) => `${t.type}:${t.reference_type}`)).toEqual([
    'consume:invoice',
    'consume:payment',
    'consume:payment',
    'consume:payment',
    'consume:cancellation',
    'consume:payment',
  ]);
}, 90_000);

it("keeps the invoice's taxes on a settling installment after tiny payments used up the base: SAT-valid, ObjetoImpDR 02", async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  const ids: string[] = [];
  for (const monto of [0.25, 0.25, 1159.49, 0.01]) {
    const res = await pay(account, invoice.id, { monto, formaPago: '03' });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  const last = await stampedXml(ids[3]!);
  assertSatConformant(last);
  expect(attribute(last, 'DoctoRelacionado', 'ObjetoImpDR')).toBe('02');
  expect(attribute(last, 'TrasladoDR', 'BaseDR')).toBe('0.01');
  expect(attribute(last, 'Totales', 'TotalTrasladosBaseIVA16')).toBe('0.01');
}, 60_000);

it('relates the invoice by the taxes written in its stamped XML, not by recomputing its stored input', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  // As if the invoice had been stamped by an engine that computed its input differently from today's.
  await stack.api.orm.em
    .fork()
    .execute(`update documents set input = jsonb_set(input, '{items,0,unitPrice}', '999') where id = ?`, [
      invoice.id,
    ]);
  const half = await pay(account, invoice.id, { monto: 580, formaPago: '03' });
  expect(half.status).toBe(201);
  const xml = await stampedXml(half.body.id);
  assertSatConformant(xml);
  expect([attribute(xml, 'TrasladoDR', 'BaseDR'), attribute(xml, 'TrasladoDR', 'ImporteDR')]).toEqual([
    '500.00',
    '80.00',
  ]);
}, 60_000);

it('lets exactly one of two concurrent payments that together overpay through', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  const results = await Promise.all([
    pay(account, invoice.id, { monto: 700, formaPago: '03' }),
    pay(account, invoice.id, { monto: 700, formaPago: '03' }),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
  expect(results.find((r) => r.status === 400)!.body.errors[0].path).toBe('/monto');
  expect(await saldo(account, invoice.id)).toBe(460);
  expect((await ledger(account.accountId)).map((t) => t.type)).toEqual(['consume', 'consume']);
}, 60_000);

it('takes no installment while an earlier one is still stamping: its outcome decides the balance the next one carries', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 4000 } }),
  });
  const slow = pay(account, invoice.id, { monto: 100, formaPago: '03' });
  const stampingFirst = await waitFor(
    async () =>
      (await get(account.testKey, `/v1/payments?invoiceId=${invoice.id}&status=stamping`)).body.data[0],
    { what: 'the first payment stamping' },
  );
  const ik = idempotencyKey();
  const second = await pay(account, invoice.id, { monto: 100, formaPago: '03' }, ik);
  expect(second.status).toBe(400);
  expect(second.body.errors).toEqual([
    {
      path: '/params/id',
      message: expect.stringContaining(
        `installment 1 (${stampingFirst.id}) of this invoice is still being stamped`,
      ),
    },
  ]);
  expect((await slow).status).toBe(201);
  // "Not yet" is not kept under the Idempotency-Key: the same key goes through once the first is stamped.
  const retried = await pay(account, invoice.id, { monto: 100, formaPago: '03' }, ik);
  expect({ status: retried.status, replayed: retried.headers.get('idempotency-replayed') }).toEqual({
    status: 201,
    replayed: null,
  });
  expect(retried.body).toMatchObject({ numParcialidad: 2, saldoAnterior: 1060, saldoInsoluto: 960 });
  expect((await ledger(account.accountId)).map((t) => t.type)).toEqual(['consume', 'consume', 'consume']);
}, 60_000);

it('gives the amount back when the SAT rejects the complement, and refunds the timbre', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'stamp', kind: 'reject', count: 1, params: { code: 'CRP20217' } }),
  });
  const rejected = await pay(account, invoice.id, { monto: 500, formaPago: '03' });
  expect(rejected.status).toBe(422);
  expect(rejected.body).toMatchObject({ code: 'sat_rejected', satCode: 'CRP20217' });
  expect(await saldo(account, invoice.id)).toBe(1160);
  expect((await ledger(account.accountId)).map((t) => t.type)).toEqual(['consume', 'consume', 'refund']);
  const failed = (await get(account.testKey, `/v1/payments?invoiceId=${invoice.id}&status=stamp_failed`)).body
    .data;
  expect(failed).toHaveLength(1);
  // The failed payment does not hold its installment number.
  const retry = await pay(account, invoice.id, { monto: 500, formaPago: '03', numParcialidad: 1 });
  expect(retry.status).toBe(201);
}, 60_000);

it('replays a payment by its idempotency key without charging again', async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  const ik = idempotencyKey();
  const first = await pay(account, invoice.id, { monto: 100, formaPago: '03' }, ik);
  const replay = await pay(account, invoice.id, { monto: 100, formaPago: '03' }, ik);
  expect(replay.status).toBe(201);
  expect(replay.headers.get('idempotency-replayed')).toBe('true');
  expect(replay.body.id).toBe(first.body.id);
  expect(await saldo(account, invoice.id)).toBe(1060);
}, 60_000);

it('refuses payments of PUE invoices, credit notes and unknown invoices, and bad bodies', async () => {
  const account = await stampingAccount(stack);
  const pue = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
  expect(pue.status).toBe(201);
  const onPue = await pay(account, pue.body.id, { monto: 10, formaPago: '03' });
  expect(onPue.status).toBe(400);
  expect(onPue.body.errors[0].message).toMatch(/only to PPD invoices/);
  expect((await pay(account, 'inv_missing', { monto: 10, formaPago: '03' })).status).toBe(404);
  const invoice = await ppdInvoice(account);
  const bad = await pay(account, invoice.id, {
    monto: 10,
    formaPago: '99',
    fechaPago: '2099-01-01T00:00:00',
  });
  expect(bad.status).toBe(400);
  expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['/formaPago']);
  const future = await pay(account, invoice.id, {
    monto: 10,
    formaPago: '03',
    fechaPago: '2099-01-01T00:00:00',
  });
  expect(future.status).toBe(400);
  expect(future.body.errors[0].path).toBe('/fechaPago');
  expect((await pay(account, invoice.id, { monto: 0, formaPago: '03' })).status).toBe(400);
  // Another account's invoice is not found.
  const other = await stack.api.newAccount();
  expect(
    (await pay({ ...account, testKey: other.testKey }, invoice.id, { monto: 10, formaPago: '03' })).status,
  ).toBe(404);
  expect((await get(other.testKey, `/v1/payments?invoiceId=${invoice.id}`)).body.data).toEqual([]);
  expect(await saldo(account, invoice.id)).toBe(1160);
}, 60_000);

it("answers 402 without touching the balance owed when the account cannot pay the timbre, and 403/404 outside the key's reach", async () => {
  const account = await stampingAccount(stack);
  const invoice = await ppdInvoice(account);
  const em = stack.api.orm.em.fork();
  // Spend the whole test balance through the ledger (an operator correction), leaving nothing for a timbre.
  const { adjustBalance, getBalanceCentavos } = await import('@cfdi/services');
  const left = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });
  await adjustBalance(
    em,
    { accountId: account.accountId, livemode: false },
    { type: 'adjustment', deltaCentavos: -left, note: 'test: empty the balance' },
  );
  const broke = await pay(account, invoice.id, { monto: 100, formaPago: '03' });
  expect(broke.status).toBe(402);
  expect(broke.body.code).toBe('insufficient_credits');
  expect(await saldo(account, invoice.id)).toBe(1160);
  expect((await get(account.testKey, `/v1/payments?invoiceId=${invoice.id}`)).body.data).toEqual([]);

  const restricted = { secret: await keyForAnotherMerchant(stack.api, account) };
  const forbidden = await stack.api.request('POST', `/v1/invoices/${invoice.id}/payments`, {
    key: restricted.secret,
    headers: { 'idempotency-key': idempotencyKey() },
    body: { monto: 100, formaPago: '03' },
  });
  expect(forbidden.status).toBe(403);
  const other = await stack.api.newAccount();
  expect(
    (await post(other.testKey, `/v1/invoices/${invoice.id}/payments`, { monto: 100, formaPago: '03' }))
      .status,
  ).toBe(404);
}, 60_000);
