import { getBalanceCentavos } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { newMerchant, satUpload } from './merchant-fixtures';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  // The SAT status is polled every second while a receiver decides.
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
const cancel = (account: Account, id: string, body: unknown, ik?: string) =>
  post(account.testKey, `/v1/${id.startsWith('pay_') ? 'payments' : 'invoices'}/${id}/cancel`, body, ik);
const ledger = async (accountId: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute(
        `select type, reference_type from transactions where account_id = ? and livemode = false and type <> 'seed' order by seq`,
        [accountId],
      )) as { type: string; reference_type: string }[]
  ).map((t) => `${t.type}:${t.reference_type}`);
/** The outbox events of cancellations, in order. */
const events = async (accountId: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute(`select type from events where account_id = ? and type like '%cancel%' order by id`, [
        accountId,
      ])) as { type: string }[]
  ).map((e) => e.type);
const receiver = (uuid: string, answer: 'accept' | 'reject') =>
  fetch(`${stack.sandbox.url}/sandbox/receiver/${uuid}/${answer}`, { method: 'POST' });
const local = (url: string) => stack.api.url + new URL(url).pathname + new URL(url).search;

/** Above 1,000 MXN to a normal receiver: the receiver must accept (cfdi40.md §8.2). */
async function bigInvoice(account: Account) {
  const res = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
  expect(res.status).toBe(201);
  return res.body as { id: string; uuid: string; total: number };
}

/** At most 1,000 MXN: cancelled without acceptance. */
async function smallInvoice(account: Account, overrides: Record<string, unknown> = {}) {
  const res = await post(
    account.testKey,
    '/v1/invoices',
    invoiceBody(account.merchantId, {
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Mouse', quantity: 1, unitPrice: 580 },
      ],
      ...overrides,
    }),
  );
  expect(res.status).toBe(201);
  return res.body as { id: string; uuid: string };
}

async function statusOf(account: Account, id: string, status: string) {
  return waitFor(
    async () => {
      const current = (
        await get(account.testKey, `/v1/${id.startsWith('pay_') ? 'payments' : 'invoices'}/${id}`)
      ).body;
      return current.status === status ? current : undefined;
    },
    { what: `${id} to be ${status}` },
  );
}

it('the monthly cap holds back stamping, not cancelling: at the cap a new invoice is 402, its cancellation goes through', async () => {
  const account = await stampingAccount(stack);
  const invoice = await smallInvoice(account);
  await stack.api.orm.em
    .fork()
    .execute('update accounts set monthly_cap = 1 where id = ?', [account.accountId]);
  const refused = await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
  expect({ status: refused.status, code: refused.body.code }).toEqual({
    status: 402,
    code: 'monthly_limit_reached',
  });
  const res = await cancel(account, invoice.id, { motivo: '02' });
  expect(res.status).toBe(202);
  await statusOf(account, invoice.id, 'cancelled');
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'consume:cancellation']);
}, 60_000);

it('acceptance path: cancel_pending with the acuse, then cancelled when the receiver accepts', async () => {
  const account = await stampingAccount(stack);
  const invoice = await bigInvoice(account);
  const res = await cancel(account, invoice.id, { motivo: '02' });
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({
    id: invoice.id,
    object: 'invoice',
    status: 'cancel_pending',
    cancellation: {
      motivo: '02',
      folioSustitucion: null,
      status: 'pending',
      requestedAt: expect.any(String),
      resolvedAt: null,
      acuse: {
        uuid: invoice.uuid,
        rfcEmisor: 'EKU9003173C9',
        codigo: '201',
        estatus: 'En proceso',
        fecha: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        xmlUrl: expect.stringContaining('/files/'),
      },
    },
  });
  const acuse = await fetch(local(res.body.cancellation.acuse.xmlUrl));
  expect(acuse.status).toBe(200);
  expect(await acuse.text()).toMatch(
    new RegExp(`<UUID>${invoice.uuid}</UUID><EstatusUUID>201</EstatusUUID>.*SelloSAT`),
  );

  expect((await receiver(invoice.uuid, 'accept')).status).toBe(200);
  const cancelled = await statusOf(account, invoice.id, 'cancelled');
  expect(cancelled.cancellation).toMatchObject({
    status: 'accepted',
    resolvedAt: expect.any(String),
    acuse: { codigo: '201' },
  });
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'consume:cancellation']);
  expect(await events(account.accountId)).toEqual(['invoice.cancel_pending', 'invoice.cancelled']);
  // A cancelled document cannot be cancelled again.
  expect((await cancel(account, invoice.id, { motivo: '02' })).status).toBe(400);
}, 60_000);

it('refusal path: back to stamped with cancellation.status rejected, and the timbre stays spent', async () => {
  const account = await stampingAccount(stack);
  const invoice = await bigInvoice(account);
  const res = await cancel(account, invoice.id, { motivo: '03' });
  expect(res.body).toMatchObject({ status: 'cancel_pending' });
  expect((await receiver(invoice.uuid, 'reject')).status).toBe(200);
  await waitFor(
    async () => {
      const current = (await get(account.testKey, `/v1/invoices/${invoice.id}`)).body;
      return current.cancellation?.status === 'rejected' ? current : undefined;
    },
    { what: 'the rejection' },
  ).then((current) => {
    expect(current).toMatchObject({
      status: 'stamped',
      cancellation: { motivo: '03', status: 'rejected', resolvedAt: expect.any(String) },
    });
  });
  expect(await ledger(account.accountId)).toEqual(['consume:invoice', 'consume:cancellation']);
  expect(await events(account.accountId)).toEqual([
    'invoice.cancel_pending',
    'invoice.cancellation_rejected',
  ]);
  // The issuer may ask again; the new request waits for the receiver again.
  const again = await cancel(account, invoice.id, { motivo: '03' });
  expect(again.body).toMatchObject({
    status: 'cancel_pending',
    cancellation: { status: 'pending', resolvedAt: null },
  });
  expect((await receiver(invoice.uuid, 'accept')).status).toBe(200);
  await statusOf(account, invoice.id, 'cancelled');
  expect(await ledger(account.accountId)).toEqual([
    'consume:invoice',
    'consume:cancellation',
    'consume:cancellation',
  ]);
}, 60_000);

it('cancels at once without acceptance (motives 02, 04 on a global invoice, 01 with its replacement) and replays by key without a second consume', async () => {
  const account = await stampingAccount(stack);
  const global = {
    usoCfdi: 'S01',
    receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
    informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 },
    items: [
      {
        productCode: '01010101',
        unitCode: 'ACT',
        description: 'Venta',
        quantity: 1,
        unitPrice: 580,
        noIdentificacion: 'T-1',
      },
    ],
  };
  const [a, b, original] = [
    await smallInvoice(account),
    await smallInvoice(account, global),
    await smallInvoice(account),
  ];
  const replacement = await smallInvoice(account, {
    relatedDocuments: [{ tipoRelacion: '04', uuids: [original.uuid] }],
  });
  const ik = idempotencyKey();
  const first = await cancel(account, a.id, { motivo: '02' }, ik);
  expect(first.status).toBe(202);
  expect(first.body).toMatchObject({
    status: 'cancelled',
    cancellation: {
      status: 'accepted',
      resolvedAt: expect.any(String),
      acuse: { codigo: '201', estatus: 'Cancelado sin aceptación' },
    },
  });
  const replay = await cancel(account, a.id, { motivo: '02' }, ik);
  expect(replay.status).toBe(202);
  expect(replay.headers.get('idempotency-replayed')).toBe('true');
  expect(replay.body).toEqual(first.body);

  expect((await cancel(account, b.id, { motivo: '04' })).body).toMatchObject({
    status: 'cancelled',
    cancellation: { motivo: '04' },
  });
  const withReplacement = await cancel(account, original.id, {
    motivo: '01',
    folioSustitucion: replacement.uuid.toLowerCase(),
  });
  expect(withReplacement.body).toMatchObject({
    status: 'cancelled',
    cancellation: { motivo: '01', folioSustitucion: replacement.uuid },
  });
  expect((await ledger(account.accountId)).filter((t) => t === 'consume:cancellation')).toHaveLength(3);
}, 60_000);

it('validates the request: motive and folioSustitucion rules, 404, status', async () => {
  const account = await stampingAccount(stack);
  const invoice = await smallInvoice(account);
  const missingFolio = await cancel(account, invoice.id, { motivo: '01' });
  expect(missingFolio.status).toBe(400);
  expect(missingFolio.body.errors[0].path).toBe('/folioSustitucion');
  const extraFolio = await cancel(account, invoice.id, {
    motivo: '02',
    folioSustitucion: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
  });
  expect(extraFolio.status).toBe(400);
  expect((await cancel(account, invoice.id, { motivo: '05' })).status).toBe(400);
  expect((await cancel(account, 'inv_missing', { motivo: '02' })).status).toBe(404);
  expect((await cancel(account, 'pay_missing', { motivo: '02' })).status).toBe(404);
  const other = await stack.api.newAccount();
  expect((await post(other.testKey, `/v1/invoices/${invoice.id}/cancel`, { motivo: '02' })).status).toBe(404);
  expect(await ledger(account.accountId)).toEqual(['consume:invoice']);
}, 60_000);

it('422 sat_rejected with the SAT code and a refund: unknown replacement (207), related credit note (no_cancelable)', async () => {
  const account = await stampingAccount(stack);
  const invoice = await smallInvoice(account);
  const unknown = await cancel(account, invoice.id, {
    motivo: '01',
    folioSustitucion: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
  });
  expect(unknown.status).toBe(422);
  expect(unknown.body).toMatchObject({ code: 'sat_rejected', satCode: '207' });
  expect((await get(account.testKey, `/v1/invoices/${invoice.id}`)).body).toMatchObject({
    status: 'stamped',
    cancellation: null,
  });

  const note = await post(account.testKey, '/v1/credit_notes', {
    merchantId: account.merchantId,
    relatedInvoiceId: invoice.id,
    formaPago: '03',
    items: [
      { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 58 },
    ],
  });
  expect(note.status).toBe(201);
  const blocked = await cancel(account, invoice.id, { motivo: '02' });
  expect(blocked.status).toBe(422);
  expect(blocked.body.satCode).toBe('no_cancelable');
  // Cancelling the credit note (egreso: no acceptance) leaves the invoice as it was; then the invoice can go.
  expect((await cancel(account, note.body.id, { motivo: '02' })).body).toMatchObject({ status: 'cancelled' });
  expect((await get(account.testKey, `/v1/invoices/${invoice.id}`)).body.status).toBe('stamped');
  expect((await cancel(account, invoice.id, { motivo: '02' })).body).toMatchObject({ status: 'cancelled' });
  expect(await ledger(account.accountId)).toEqual([
    'consume:invoice',
    'consume:cancellation',
    'refund:cancellation',
    'consume:invoice',
    'consume:cancellation',
    'refund:cancellation',
    'consume:cancellation',
    'consume:cancellation',
  ]);
}, 60_000);

describe('credit notes and the invoice they credit', () => {
  const creditNote = (
    account: Account,
    relation: Record<string, unknown>,
    ik?: string,
    key = account.testKey,
  ) =>
    post(
      key,
      '/v1/credit_notes',
      {
        merchantId: account.merchantId,
        formaPago: '03',
        ...relation,
        items: [
          {
            productCode: '84111506',
            unitCode: 'ACT',
            description: 'Bonificación',
            quantity: 1,
            unitPrice: 58,
          },
        ],
      },
      ik,
    );
  const withReceiver = (uuid: string) => ({
    relatedUuid: uuid,
    receiver: {
      rfc: 'URE180429TM6',
      name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
      zip: '86991',
      regimenFiscal: '601',
    },
  });

  it('no credit note for an invoice whose cancellation waits for the receiver (it would stay in force for a cancelled invoice)', async () => {
    const account = await stampingAccount(stack);
    const invoice = await bigInvoice(account);
    expect((await cancel(account, invoice.id, { motivo: '02' })).body.status).toBe('cancel_pending');
    for (const relation of [{ relatedInvoiceId: invoice.id }, withReceiver(invoice.uuid)]) {
      const refused = await creditNote(account, relation);
      expect({ status: refused.status, errors: refused.body.errors }).toEqual({
        status: 400,
        errors: [
          {
            path: Object.keys(relation).includes('relatedInvoiceId') ? '/relatedInvoiceId' : '/relatedUuid',
            message: expect.stringContaining('is being requested'),
          },
        ],
      });
    }
    expect((await receiver(invoice.uuid, 'accept')).status).toBe(200);
    await statusOf(account, invoice.id, 'cancelled');
  }, 60_000);

  it('the credit notes in force never add up to more than the invoice; a cancelled one gives its amount back', async () => {
    const account = await stampingAccount(stack);
    const invoice = await smallInvoice(account);
    const credit = (unitPrice: number) =>
      post(account.testKey, '/v1/credit_notes', {
        merchantId: account.merchantId,
        formaPago: '03',
        relatedInvoiceId: invoice.id,
        items: [
          { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice },
        ],
      });
    const first = await credit(400);
    expect(first.status).toBe(201);
    const over = await credit(200);
    expect({ status: over.status, errors: over.body.errors }).toEqual({
      status: 400,
      errors: [{ path: '/items', message: expect.stringContaining('more than the 180.00') }],
    });
    expect((await cancel(account, first.body.id, { motivo: '02' })).body.status).toBe('cancelled');
    expect((await credit(580)).status).toBe(201);
    expect((await credit(0.01)).status).toBe(400);
  }, 60_000);

  it('a relatedUuid held in the service gets the same checks as relatedInvoiceId, and links the invoice', async () => {
    const account = await stampingAccount(stack);
    const invoice = await smallInvoice(account);
    const linked = await creditNote(account, withReceiver(invoice.uuid));
    expect(linked.status).toBe(201);
    expect(linked.body).toMatchObject({ relatedUuid: invoice.uuid, relatedInvoiceId: invoice.id });
    const ppd = (
      await post(
        account.testKey,
        '/v1/invoices',
        invoiceBody(account.merchantId, { metodoPago: 'PPD', formaPago: '99' }),
      )
    ).body;
    const payment = await post(account.testKey, `/v1/invoices/${ppd.id}/payments`, {
      monto: 100,
      formaPago: '03',
    });
    const cancelled = await smallInvoice(account);
    expect((await cancel(account, cancelled.id, { motivo: '02' })).body.status).toBe('cancelled');
    for (const [uuid, message] of [
      [payment.body.uuid, 'is payment complement'],
      [linked.body.uuid, 'is credit note'],
      [cancelled.uuid, 'the related invoice is cancelled'],
    ] as const) {
      const refused = await creditNote(account, withReceiver(uuid));
      expect({ status: refused.status, errors: refused.body.errors }).toEqual({
        status: 400,
        errors: [{ path: '/relatedUuid', message: expect.stringContaining(message) }],
      });
    }
    // A key restricted to the account's other merchant learns nothing of this one's invoice: 403, whichever way it is named.
    const other = await newMerchant(stack.api, account.testKey, {
      rfc: 'CACX7605101P8',
      legalName: 'XOCHILT CASAS CHAVEZ',
      regimenFiscal: '612',
      zip: '36257',
      serie: 'NC2',
    });
    expect(
      (
        await stack.api.request('POST', `/v1/merchants/${other.id}/csd`, {
          key: account.testKey,
          body: satUpload('CACX7605101P8-csd'),
        })
      ).status,
    ).toBe(201);
    const { createApiKey } = await import('@cfdi/services');
    const restricted = await createApiKey(stack.api.orm.em.fork(), {
      accountId: account.accountId,
      livemode: false,
      merchantIds: [other.id],
    });
    for (const relation of [{ relatedInvoiceId: invoice.id }, withReceiver(invoice.uuid)]) {
      const forbidden = await creditNote(
        { ...account, merchantId: other.id },
        relation,
        undefined,
        restricted.secret,
      );
      expect({ status: forbidden.status, code: forbidden.body.code }).toEqual({
        status: 403,
        code: 'forbidden',
      });
    }
  }, 90_000);

  it('an invoice is not cancelled while its credit note is still stamping; a credit note waits for a stamping invoice (same key passes later)', async () => {
    const account = await stampingAccount(stack);
    const invoice = await smallInvoice(account);
    const slowStamp = (ms: number) =>
      fetch(`${stack.sandbox.url}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms } }),
      });
    await slowStamp(4000);
    const slowNote = creditNote(account, { relatedInvoiceId: invoice.id });
    await waitFor(
      async () =>
        (await get(account.testKey, '/v1/invoices?kind=credit_note&status=stamping')).body.data[0]
          ? true
          : undefined,
      { what: 'the credit note stamping' },
    );
    const refused = await cancel(account, invoice.id, { motivo: '02' });
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [{ path: '/params/id', message: expect.stringContaining('is still being stamped') }],
    });
    expect((await slowNote).status).toBe(201);

    await slowStamp(4000);
    const slowInvoice = post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId));
    const stamping = await waitFor(
      async () => (await get(account.testKey, '/v1/invoices?kind=nominal&status=stamping')).body.data[0],
      { what: 'the invoice stamping' },
    );
    const ik = idempotencyKey();
    const early = await creditNote(account, { relatedInvoiceId: stamping.id }, ik);
    expect({ status: early.status, errors: early.body.errors }).toEqual({
      status: 400,
      errors: [{ path: '/relatedInvoiceId', message: expect.stringContaining('is still being stamped') }],
    });
    expect((await slowInvoice).status).toBe(201);
    const later = await creditNote(account, { relatedInvoiceId: stamping.id }, ik);
    expect({ status: later.status, replayed: later.headers.get('idempotency-replayed') }).toEqual({
      status: 201,
      replayed: null,
    });
  }, 90_000);
});

it('an invoice with live payments cannot be cancelled with motive 02 or 03; once its payment is cancelled it can', async () => {
  const account = await stampingAccount(stack);
  const invoice = (
    await post(
      account.testKey,
      '/v1/invoices',
      invoiceBody(account.merchantId, {
        metodoPago: 'PPD',
        formaPago: '99',
        receiver: { rfc: 'XEXX010101000', name: 'CLIENTE EXTRANJERO', zip: '42501', regimenFiscal: '616' },
        usoCfdi: 'S01',
      }),
    )
  ).body;
  expect(invoice.status).toBe('stamped');
  const payment = await post(account.testKey, `/v1/invoices/${invoice.id}/payments`, {
    monto: 1000,
    formaPago: '03',
  });
  expect(payment.status).toBe(201);
  const refused = await cancel(account, invoice.id, { motivo: '03' });
  expect(refused.status).toBe(400);
  expect(refused.body.errors[0]).toMatchObject({
    path: '/motivo',
    message: expect.stringMatching(/payment complements in force/),
  });
  // A foreign receiver: the complement is cancelled without acceptance, and the balance comes back at once.
  expect((await cancel(account, payment.body.id, { motivo: '02' })).body).toMatchObject({
    status: 'cancelled',
  });
  expect((await get(account.testKey, `/v1/invoices/${invoice.id}`)).body.saldoPendiente).toBe(invoice.total);
  expect((await cancel(account, invoice.id, { motivo: '03' })).body).toMatchObject({ status: 'cancelled' });
  expect(await events(account.accountId)).toEqual(['payment.cancelled', 'invoice.cancelled']);
}, 60_000);

it('503 pac_unavailable refunds and a retry with the same key cancels; 402 without balance', async () => {
  const account = await stampingAccount(stack);
  const invoice = await smallInvoice(account);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'cancel_signature', kind: 'http_500', count: 10, params: {} }),
  });
  const ik = idempotencyKey();
  const down = await cancel(account, invoice.id, { motivo: '02' }, ik);
  expect(down.status).toBe(503);
  expect(down.body.code).toBe('pac_unavailable');
  expect((await get(account.testKey, `/v1/invoices/${invoice.id}`)).body).toMatchObject({
    status: 'stamped',
    cancellation: null,
  });
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  const retry = await cancel(account, invoice.id, { motivo: '02' }, ik);
  expect(retry.status).toBe(202);
  expect(retry.body.status).toBe('cancelled');
  expect(await ledger(account.accountId)).toEqual([
    'consume:invoice',
    'consume:cancellation',
    'refund:cancellation',
    'consume:cancellation',
  ]);

  const other = await smallInvoice(account);
  const em = stack.api.orm.em.fork();
  const balance = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });
  await em.execute(
    `with b as (update balances set balance_centavos = 0 where account_id = ? and livemode = false returning 0)
     insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos, note) select ?, ?, false, 'adjustment', ?, 0, 'test: empty balance' from b`,
    [account.accountId, `txn_test${Date.now()}`, account.accountId, -balance],
  );
  const broke = await cancel(account, other.id, { motivo: '02' });
  expect(broke.status).toBe(402);
  expect(broke.body.code).toBe('insufficient_credits');
  expect((await get(account.testKey, `/v1/invoices/${other.id}`)).body).toMatchObject({
    status: 'stamped',
    cancellation: null,
  });
}, 60_000);
