import {
  consumePortalLimits,
  invoicePortalReceipts,
  portalKeys,
  portalReceipts,
  ReceiptUnavailableError,
} from '@cfdi/services';
import { EKU, newMerchant } from '@cfdi/api/test/merchant-fixtures';
import {
  idempotencyKey,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from '@cfdi/api/test/stack';

// The services' rules behind the portal's pages, on the real database: which keys go together, expiry, status, the
// race between two customers, and how the limits count keys.
let stack: StackHarness;
let account: Awaited<ReturnType<typeof stampingAccount>>;
beforeAll(async () => {
  stack = await startStack();
  account = await stampingAccount(stack);
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const em = () => stack.api.orm.em.fork();
const deps = () => ({
  config: stack.api.config,
  catalogs: stack.api.deps.catalogs,
  portalUrl: stack.api.config.api.portalUrl,
});

async function receipt(key: string, merchantId: string, extra: Record<string, unknown> = {}) {
  const res = await stack.api.request('POST', '/v1/receipts', {
    key,
    headers: { 'idempotency-key': idempotencyKey() },
    body: {
      merchantId,
      formaPago: '01',
      items: [{ productCode: '50192100', unitCode: 'H87', description: 'Tamal', quantity: 1, unitPrice: 25 }],
      ...extra,
    },
  });
  if (res.status !== 201) throw new Error(`receipt: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; key: string };
}

const refused = (promise: Promise<unknown>) =>
  expect(promise).rejects.toBeInstanceOf(ReceiptUnavailableError);

it('shows an open receipt until its expiry, and refuses it after', async () => {
  const sale = await receipt(account.testKey, account.merchantId);
  const [row] = await em().execute<{ expires_at: Date }[]>('select expires_at from receipts where id = ?', [
    sale.id,
  ]);
  const expiry = new Date(row!.expires_at);
  await expect(portalReceipts(em(), [sale.key.toLowerCase()], expiry)).resolves.toMatchObject({
    merchant: { name: 'ESCUELA KEMPER URGATE' },
    tickets: [{ key: sale.key, total: '25.00' }],
  });
  await refused(portalReceipts(em(), [sale.key], new Date(expiry.getTime() + 1)));
  await refused(
    invoicePortalReceipts(
      em(),
      deps(),
      { keys: [sale.key], receiver: RECEIVER, usoCfdi: 'G03' },
      new Date(expiry.getTime() + 1),
    ),
  );
});

it('puts together receipts of one merchant only (not another merchant, account or price basis)', async () => {
  const first = await receipt(account.testKey, account.merchantId);
  const sibling = await receipt(account.testKey, account.merchantId);
  const secondMerchant = await newMerchant(stack.api, account.testKey, {
    ...EKU,
    serie: `P${Date.now() % 1e6}`,
  });
  const otherMerchant = await receipt(account.testKey, secondMerchant.id as string);
  const stranger = await stampingAccount(stack);
  const otherAccount = await receipt(stranger.testKey, stranger.merchantId);
  const netPrices = await receipt(account.testKey, account.merchantId, { pricesIncludeTax: false });
  await expect(portalReceipts(em(), [first.key, sibling.key])).resolves.toMatchObject({ total: '50.00' });
  for (const other of [otherMerchant, otherAccount, netPrices])
    await refused(portalReceipts(em(), [first.key, other.key]));
  // A cancelled receipt, and an unknown key, beside a good one: the same refusal.
  await stack.api.request('POST', `/v1/receipts/${sibling.id}/cancel`, {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
  });
  await refused(portalReceipts(em(), [first.key, sibling.key]));
  await refused(portalReceipts(em(), [first.key, 'ABCD'.repeat(4)]));
});

it('two customers submitting the same ticket at once: one invoice, the other the uniform refusal', async () => {
  const sale = await receipt(account.testKey, account.merchantId);
  const request = { keys: [sale.key], receiver: RECEIVER, usoCfdi: 'G03' };
  const outcomes = await Promise.allSettled([
    invoicePortalReceipts(em(), deps(), request),
    invoicePortalReceipts(em(), deps(), request),
  ]);
  const won = outcomes.filter((o) => o.status === 'fulfilled');
  const lost = outcomes.filter((o) => o.status === 'rejected');
  expect([won.length, lost.length]).toEqual([1, 1]);
  expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(ReceiptUnavailableError);
  const documents = await em().execute<{ id: string }[]>(
    `select d.id from documents d join receipts r on r.invoice_document_id = d.id where r.id = ?`,
    [sale.id],
  );
  expect(documents.map((d) => d.id)).toEqual([
    (won[0] as PromiseFulfilledResult<{ document: { id: string } }>).value.document.id,
  ]);
});

it('upper-cases the RFC and name a customer types, and checks the e-mail before storing anything', async () => {
  const sale = await receipt(account.testKey, account.merchantId);
  await expect(
    invoicePortalReceipts(em(), deps(), {
      keys: [sale.key],
      receiver: RECEIVER,
      usoCfdi: 'G03',
      email: 'not an address',
    }),
  ).rejects.toMatchObject({ extra: { errors: [{ path: '/email' }] } });
  const { document } = await invoicePortalReceipts(em(), deps(), {
    keys: [sale.key],
    receiver: { ...RECEIVER, rfc: ` ${RECEIVER.rfc.toLowerCase()} `, name: 'universidad  robotica española' },
    usoCfdi: 'G03',
  });
  expect(document.receiver).toMatchObject({ rfc: RECEIVER.rfc, name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA' });
});

it('limits per address and per key, counting every typed form of a key as that key', async () => {
  // A fresh key of the receipt alphabet (no I, L, O or U), so no earlier run's counter applies.
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const key = Array.from({ length: 16 }, () => alphabet[Math.floor(Math.random() * 32)]).join('');
  const limits = { perIp: 1000, perKey: 2 };
  const ip = `10.9.${Math.floor(Math.random() * 250)}.1`;
  const typed = [key.toLowerCase(), key.match(/.{4}/g)!.join('-'), key];
  const decisions = [];
  for (const form of typed)
    decisions.push((await consumePortalLimits(stack.api.redis, ip, [form], limits)).allowed);
  expect(decisions).toEqual([true, true, false]);
  expect(() => portalKeys(Array.from({ length: 11 }, () => key))).toThrow(ReceiptUnavailableError);
  expect(portalKeys([key, key.toLowerCase()])).toEqual([key]);
});
