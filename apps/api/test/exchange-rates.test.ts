import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './cli';
import {
  idempotencyKey,
  invoiceBody,
  shiftedClock,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';

/**
 * The c_Moneda variation band (CFDI40118) through the stack: the operator records the day's published rate with the
 * CLI, and an invoice whose TipoCambio strays more than 5 % from it is a 400 on /tipoCambio before any timbre is
 * reserved. GBP, which no other test issues in, so the global rate cannot change another suite's outcome.
 */
let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack?.api.orm.em.fork().execute(`delete from published_exchange_rates where moneda = 'GBP'`);
  await stack?.close();
}, 60_000);

/** The stack's day in Mexico City (its clock is pinned where the SAT test CSDs are valid). */
const today = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(shiftedClock()());
const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
const gbpInvoice = (merchantId: string, tipoCambio: number) =>
  invoiceBody(merchantId, { moneda: 'GBP', tipoCambio, pricesIncludeTax: false });

it('refuses a TipoCambio outside the band of the recorded rate, and stamps one inside it', async () => {
  const account = await stampingAccount(stack);
  const post = (body: unknown) =>
    stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      body,
      headers: { 'idempotency-key': idempotencyKey() },
    });

  // Without a recorded rate nothing is checked: a rate the SAT would refuse is the PAC's to refuse.
  await stack.api.orm.em.fork().execute(`delete from published_exchange_rates where moneda = 'GBP'`);
  expect((await post(gbpInvoice(account.merchantId, 30))).status).toBe(201);

  // A file of rates: yesterday's (an older one) and today's (the one that counts), a header line and a blank one.
  const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-rates-')), 'rates.csv');
  fs.writeFileSync(
    csv,
    `moneda,date,rate,source\nGBP,${daysBefore(today(), 1)},30\n\ngbp,${today()},23.5,DOF\n`,
  );
  const imported = await runCli(stack.api.config, ['exchange-rates', 'import', csv, '--json']);
  expect(imported.code).toBe(0);
  expect(JSON.parse(imported.stdout)).toEqual({ recorded: 2 });
  const listed = await runCli(stack.api.config, ['exchange-rates', 'list', '--moneda', 'GBP', '--json']);
  expect(JSON.parse(listed.stdout)).toEqual([
    { moneda: 'GBP', publishedOn: today(), rate: '23.5', source: 'DOF' },
    { moneda: 'GBP', publishedOn: daysBefore(today(), 1), rate: '30', source: 'DOF' },
  ]);

  const balance = async () =>
    (await stack.api.request('GET', '/v1/balance', { key: account.testKey })).body.balanceCentavos as number;
  const before = await balance();
  const outside = await post(gbpInvoice(account.merchantId, 30));
  expect(outside.status).toBe(400);
  expect(outside.headers.get('content-type')).toMatch(/application\/problem\+json/);
  const error = (outside.body.errors as Array<{ path: string; message: string }>)[0]!;
  expect(error.path).toBe('/tipoCambio');
  expect(error.message).toContain('from 22.325 to 24.675');
  expect(error.message).toContain(today());
  expect(await balance()).toBe(before);

  const inside = await post(gbpInvoice(account.merchantId, 24.1));
  expect(inside.status).toBe(201);
  expect(inside.body).toMatchObject({ status: 'stamped', currency: 'GBP' });

  // A correction of the day's rate replaces it: 30 is inside the band of 29.
  expect(
    (await runCli(stack.api.config, ['exchange-rates', 'set', 'GBP', '29', '--date', today()])).code,
  ).toBe(0);
  expect((await post(gbpInvoice(account.merchantId, 30))).status).toBe(201);
}, 120_000);

it('refuses a file with a bad line as a whole, naming the line and field', async () => {
  const csv = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-rates-')), 'rates.csv');
  fs.writeFileSync(csv, `GBP,2026-01-05,24\nGBP,2026-01-06,-3\nMXN,2026-01-06,1\n`);
  const imported = await runCli(stack.api.config, ['exchange-rates', 'import', csv, '--json']);
  expect(imported.code).not.toBe(0);
  const failure = JSON.parse(imported.stderr);
  expect(JSON.stringify(failure)).toContain('/1/rate');
  expect(JSON.stringify(failure)).toContain('/2/moneda');
  const listed = await runCli(stack.api.config, ['exchange-rates', 'list', '--moneda', 'GBP', '--json']);
  expect(JSON.parse(listed.stdout).map((r: { publishedOn: string }) => r.publishedOn)).not.toContain(
    '2026-01-05',
  );
}, 60_000);
