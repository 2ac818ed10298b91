import { attributesOf, CUSTOMER, notFound, saved, stampedXml } from './record-fixtures';
import { keyForAnotherMerchant } from './restricted-key';
import { idempotencyKey, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, path: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', path, { key, headers: { 'idempotency-key': ik }, body });
const get = (key: string, path: string) => stack.api.request('GET', path, { key });
const paths = (res: { body: { errors?: { path: string }[] } }) => (res.body.errors ?? []).map((e) => e.path);

const ticket = (merchantId: string, description: string, unitPrice: number, formaPago = '01') => ({
  merchantId,
  formaPago,
  items: [{ productCode: '50192100', unitCode: 'H87', description, quantity: 1, unitPrice }],
});

async function receipt(key: string, body: unknown) {
  const res = await post(key, '/v1/receipts', body);
  if (res.status !== 201) throw new Error(`receipt: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; status: string };
}

const events = async (accountId: string, type: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute('select data from events where account_id = ? and type = ? order by id', [
        accountId,
        type,
      ])) as {
      data: { object: { id: string; status: string; invoiceId: string } };
    }[]
  ).map((e) => e.data.object);

describe('invoicing receipts', () => {
  it('POST /v1/receipts/{id}/invoice stamps the receipt for a customer and marks it invoiced, with its event', async () => {
    const account = await stampingAccount(stack);
    const sale = await receipt(account.testKey, ticket(account.merchantId, 'Torta de milanesa', 116));
    const ik = idempotencyKey();
    const res = await post(
      account.testKey,
      `/v1/receipts/${sale.id}/invoice`,
      { receiver: RECEIVER, usoCfdi: 'G03' },
      ik,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'stamped', total: 116, formaPago: '01', usoCfdi: 'G03' });
    const xml = await stampedXml(stack, res.body.id);
    expect(attributesOf(xml, 'Receptor')).toMatchObject({ Rfc: RECEIVER.rfc, UsoCFDI: 'G03' });
    expect(attributesOf(xml, 'Concepto')).toMatchObject({
      Descripcion: 'Torta de milanesa',
      ValorUnitario: '100.000000',
    });
    const after = (await get(account.testKey, `/v1/receipts/${sale.id}`)).body;
    expect(after).toMatchObject({ status: 'invoiced', invoiceId: res.body.id });
    expect(await events(account.accountId, 'receipt.invoiced')).toEqual([
      expect.objectContaining({ id: sale.id, status: 'invoiced', invoiceId: res.body.id }),
    ]);
    // The same key answers the same invoice; a new key is refused: the receipt is no longer open.
    const replay = await post(
      account.testKey,
      `/v1/receipts/${sale.id}/invoice`,
      { receiver: RECEIVER, usoCfdi: 'G03' },
      ik,
    );
    expect({ status: replay.status, id: replay.body.id }).toEqual({ status: 201, id: res.body.id });
    const again = await post(account.testKey, `/v1/receipts/${sale.id}/invoice`, {
      receiver: RECEIVER,
      usoCfdi: 'G03',
    });
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 409,
      code: 'receipt_not_open',
    });
    const cancel = await stack.api.request('POST', `/v1/receipts/${sale.id}/cancel`, {
      key: account.testKey,
    });
    expect(cancel.status).toBe(409);
  }, 90_000);

  it('POST /v1/invoices/from_receipts puts two tickets in one invoice for a saved customer', async () => {
    const account = await stampingAccount(stack);
    const customer = await saved(stack, account.testKey, '/v1/customers', CUSTOMER);
    const a = await receipt(account.testKey, ticket(account.merchantId, 'Comida del lunes', 232, '04'));
    const b = await receipt(account.testKey, ticket(account.merchantId, 'Comida del martes', 116, '01'));
    const res = await post(account.testKey, '/v1/invoices/from_receipts', {
      receiptIds: [a.id, b.id],
      customerId: customer.id,
    });
    expect(res.status).toBe(201);
    // The payment form that paid the most: 232 by card against 116 in cash.
    expect(res.body).toMatchObject({
      status: 'stamped',
      total: 348,
      formaPago: '04',
      customerId: customer.id,
    });
    const xml = await stampedXml(stack, res.body.id);
    expect([...xml.matchAll(/Descripcion="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'Comida del lunes',
      'Comida del martes',
    ]);
    for (const id of [a.id, b.id])
      expect((await get(account.testKey, `/v1/receipts/${id}`)).body).toMatchObject({
        status: 'invoiced',
        invoiceId: res.body.id,
      });
  }, 90_000);

  it('refuses what one invoice cannot cover, each on its path, and foreign receipts as unknown ones', async () => {
    const account = await stampingAccount(stack);
    const other = await stampingAccount(stack);
    const mine = await receipt(account.testKey, ticket(account.merchantId, 'Café', 58));
    const theirs = await receipt(other.testKey, ticket(other.merchantId, 'Té', 58));
    const refused = async (body: Record<string, unknown>) => {
      const res = await post(account.testKey, '/v1/invoices/from_receipts', {
        customerId: undefined,
        receiver: RECEIVER,
        usoCfdi: 'G03',
        ...body,
      });
      return { status: res.status, paths: paths(res) };
    };
    expect(await refused({ receiptIds: [mine.id, theirs.id] })).toEqual({
      status: 400,
      paths: ['/receiptIds/1'],
    });
    expect(await refused({ receiptIds: [mine.id, mine.id] })).toEqual({
      status: 400,
      paths: ['/receiptIds/1'],
    });
    expect(await refused({ receiptIds: [] })).toEqual({ status: 400, paths: ['/receiptIds'] });
    expect(await refused({ receiptIds: [mine.id], usoCfdi: 'ZZZ' })).toMatchObject({ status: 400 });
    const second = await keyForAnotherMerchant(stack.api, account);
    const restrictedMerchant = (await get(second, '/v1/merchants')).body.data[0].id as string;
    const elsewhere = await receipt(account.testKey, ticket(restrictedMerchant, 'Pan', 20));
    expect(await refused({ receiptIds: [mine.id, elsewhere.id] })).toEqual({
      status: 400,
      paths: ['/receiptIds/1'],
    });

    const unknown = 'rcpt_0000000000AAAAAAAAAAAAAAAA';
    const body = { receiver: RECEIVER, usoCfdi: 'G03' };
    const expected = notFound(await post(account.testKey, `/v1/receipts/${unknown}/invoice`, body), unknown);
    expect(expected).toMatchObject({ status: 404 });
    for (const key of [other.testKey, account.liveKey, second])
      expect(notFound(await post(key, `/v1/receipts/${mine.id}/invoice`, body), mine.id)).toEqual(expected);
    expect((await get(account.testKey, `/v1/receipts/${mine.id}`)).body.status).toBe('open');
  }, 90_000);

  it('reopens the receipts of an invoice the SAT refused, so they can be invoiced again', async () => {
    const account = await stampingAccount(stack);
    const sale = await receipt(
      account.testKey,
      ticket(account.merchantId, 'Equipo SANDBOX_REJECT_CFDI40145', 116),
    );
    const refused = await post(account.testKey, `/v1/receipts/${sale.id}/invoice`, {
      receiver: RECEIVER,
      usoCfdi: 'G03',
    });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 422,
      code: 'sat_rejected',
    });
    expect((await get(account.testKey, `/v1/receipts/${sale.id}`)).body).toMatchObject({
      status: 'open',
      invoiceId: null,
    });
  }, 90_000);

  it('of two invoices racing for one receipt, exactly one is stored; the loser is 409 and charges nothing', async () => {
    const account = await stampingAccount(stack);
    const sale = await receipt(account.testKey, ticket(account.merchantId, 'Pastel', 348));
    const balance = async () => (await get(account.testKey, '/v1/balance')).body.balanceCentavos as number;
    const before = await balance();
    // Force the race: hold the receipt's row lock while four requests pass their checks and queue on the update that
    // marks it invoiced; released together, only the conditional update decides which one wins.
    const pending = await stack.api.orm.em.fork().transactional(async (tx) => {
      await tx.execute('select id from receipts where id = ? for update', [sale.id]);
      const requests = Array.from({ length: 4 }, () =>
        post(account.testKey, `/v1/receipts/${sale.id}/invoice`, { receiver: RECEIVER, usoCfdi: 'G03' }),
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return requests;
    });
    const answers = await Promise.all(pending);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const winner = answers.find((r) => r.status === 201)!;
    expect((await get(account.testKey, `/v1/receipts/${sale.id}`)).body.invoiceId).toBe(winner.body.id);
    const invoices: unknown[] = await stack.api.orm.em
      .fork()
      .execute(`select id from documents where merchant_id = ?`, [account.merchantId]);
    expect(invoices).toHaveLength(1);
    // One timbre: the losers' reservations rolled back with their documents.
    const spent = before - (await balance());
    const next = await receipt(account.testKey, ticket(account.merchantId, 'Galletas', 58));
    expect(
      (await post(account.testKey, `/v1/receipts/${next.id}/invoice`, { receiver: RECEIVER, usoCfdi: 'G03' }))
        .status,
    ).toBe(201);
    expect(before - (await balance())).toBe(2 * spent);
  }, 90_000);
});
