import { randomBytes } from 'node:crypto';
import { startMailpit, type RunningMailpit } from '@cfdi/devstack';
import { adjustBalance, getBalanceCentavos, lowBalanceState, setLowBalanceAlert } from '@cfdi/services';
import { mailpitClient } from './mailpit-client';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let mailpit: RunningMailpit;
let stack: StackHarness;
let mail: ReturnType<typeof mailpitClient>;
beforeAll(async () => {
  mailpit = await startMailpit(() => undefined);
  mail = mailpitClient(mailpit.webUrl);
  stack = await startStack({
    SMTP_URL: `smtp://127.0.0.1:${mailpit.smtpPort}`,
    MAIL_FROM: 'Avisos <avisos@example.com>',
  });
}, 300_000);
afterAll(async () => {
  await stack?.close();
  await mailpit?.stop();
}, 60_000);

const em = () => stack.api.orm.em.fork();

/** One stamp: a timbre of 100 centavos (the first price tier) off the balance. */
async function stamp(account: Awaited<ReturnType<typeof stampingAccount>>): Promise<void> {
  const res = await stack.api.request('POST', '/v1/invoices', {
    key: account.testKey,
    headers: { 'idempotency-key': idempotencyKey() },
    body: invoiceBody(account.merchantId),
  });
  expect(res.status).toBe(201);
}

/** The worker's minute sweep, run now: it sends the queued warnings. */
async function sweep(): Promise<void> {
  await stack.api.deps.temporal.workflow.execute('resumeStalledWorkflow', {
    taskQueue: stack.taskQueue,
    workflowId: `resume-stalled-${randomBytes(4).toString('hex')}`,
  });
}

it('warns by e-mail once when the balance crosses below the threshold, not on every debit; again after a credit lifts it', async () => {
  const account = await stampingAccount(stack);
  const scope = { accountId: account.accountId, livemode: false };
  const address = `finanzas-${randomBytes(4).toString('hex')}@example.mx`;
  const start = await getBalanceCentavos(em(), scope);
  // A timbre and a half above the threshold: the second stamp crosses it.
  const threshold = start - 150;
  expect(await setLowBalanceAlert(em(), scope, { thresholdCentavos: threshold, email: address })).toEqual({
    balanceCentavos: start,
    thresholdCentavos: threshold,
    email: address,
    below: false,
  });

  await stamp(account);
  await sweep();
  expect(await mail.messagesTo(address)).toEqual([]);
  expect((await lowBalanceState(em(), scope)).below).toBe(false);

  // Crosses on the second stamp; the third and fourth stay below and send nothing more.
  for (let i = 0; i < 3; i++) await stamp(account);
  await sweep();
  const [first] = await mail.waitForMessages(address, 1);
  const pesos = (centavos: number) =>
    new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(centavos / 100);
  // The balance the crossing debit left, and the threshold.
  expect(first!.Subject).toBe(`Saldo bajo / Low balance: ${pesos(start - 200)}`);
  expect(first!.Text).toContain(pesos(threshold));
  await sweep();
  expect(await mail.messagesTo(address)).toHaveLength(1);
  expect(await lowBalanceState(em(), scope)).toMatchObject({ below: true, balanceCentavos: start - 400 });

  // A credit lifts it back to where it started: the second stamp from there crosses again, and warns again.
  await adjustBalance(em(), scope, { type: 'recharge', deltaCentavos: 400, note: 'test top-up' });
  expect((await lowBalanceState(em(), scope)).below).toBe(false);
  await stamp(account);
  await sweep();
  expect(await mail.messagesTo(address)).toHaveLength(1);
  await stamp(account);
  await sweep();
  await mail.waitForMessages(address, 2);
  const alerts = await em().execute(`select status from balance_alerts where account_id = ? order by id`, [
    account.accountId,
  ]);
  expect(alerts).toEqual([{ status: 'sent' }, { status: 'sent' }]);
}, 180_000);

it('refuses a threshold without an address, or a negative one; a null threshold turns the warning off', async () => {
  const account = await stampingAccount(stack);
  const scope = { accountId: account.accountId, livemode: false };
  await expect(setLowBalanceAlert(em(), scope, { thresholdCentavos: 100, email: null })).rejects.toThrow(
    'required',
  );
  await expect(
    setLowBalanceAlert(em(), scope, { thresholdCentavos: -1, email: 'a@example.mx' }),
  ).rejects.toThrow('at least 0');
  const balance = await getBalanceCentavos(em(), scope);
  // Set above the balance: the banner shows at once, but no crossing happened, so nothing is queued.
  expect(
    (await setLowBalanceAlert(em(), scope, { thresholdCentavos: balance + 1, email: 'a@example.mx' })).below,
  ).toBe(true);
  expect(
    await em().execute('select count(*)::int as n from balance_alerts where account_id = ?', [
      account.accountId,
    ]),
  ).toEqual([{ n: 0 }]);
  expect((await setLowBalanceAlert(em(), scope, { thresholdCentavos: null, email: null })).below).toBe(false);
});
