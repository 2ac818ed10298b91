import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cadenaOriginal, verifySeal } from '@cfdi/cfdi';
import { defaultSatDir } from '@cfdi/config';
import { waitFor } from '@cfdi/testkit';
import { globalInvoiceScheduleId } from '@cfdi/temporal-contract';
import { ScheduleNotFoundError } from '@temporalio/client';
import { callTool, connectMcp } from './mcp-client';
import { attributesOf, notFound, stampedXml } from './record-fixtures';
import { idempotencyKey, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, path: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', path, { key, headers: { 'idempotency-key': ik }, body });
const get = (key: string, path: string) => stack.api.request('GET', path, { key });
const em = () => stack.api.orm.em.fork();

// The stack's clock starts on 2026-11-21: October 2026 is a closed month, November is not.
const OCTOBER = { date: '2026-10-15', periodicity: '04' };

const ticket = (merchantId: string, description: string, unitPrice: number, formaPago = '01') => ({
  merchantId,
  formaPago,
  items: [{ productCode: '50192100', unitCode: 'H87', description, quantity: 1, unitPrice }],
});

/** A receipt sold at `soldAt` (its created_at moved there: the API stamps receipts with the real clock). */
async function receipt(key: string, body: unknown, soldAt = '2026-10-15T18:00:00Z') {
  const res = await post(key, '/v1/receipts', body);
  if (res.status !== 201) throw new Error(`receipt: ${res.status} ${JSON.stringify(res.body)}`);
  await em().execute('update receipts set created_at = ? where id = ?', [new Date(soldAt), res.body.id]);
  return res.body as { id: string; status: string };
}

const globalRun = (key: string, merchantId: string, body: Record<string, unknown> = OCTOBER) =>
  post(key, '/v1/receipts/global', { merchantId, ...body });

/** The SAT's own schema (xmllint) and cadena (xsltproc with cadenaoriginal_4_0.xslt), as documents.test.ts does. */
function assertSatConformant(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-')), 'global.xml');
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

const concepts = (xml: string) =>
  [...xml.matchAll(/<cfdi:Concepto\b([^>]*)>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])),
  );

const events = async (accountId: string, type: string) =>
  (
    (await em().execute('select data from events where account_id = ? and type = ? order by id', [
      accountId,
      type,
    ])) as { data: { object: { id: string; status: string; invoiceId: string } } }[]
  ).map((e) => e.data.object);

const globalDocuments = async (merchantId: string) =>
  (await em().execute(
    `select id, status from documents where merchant_id = ? and kind = 'global' order by id`,
    [merchantId],
  )) as { id: string; status: string }[];

describe('the global invoice of receipts', () => {
  it('stamps a period’s open receipts as one global invoice, one concept each, and marks them in_global', async () => {
    const account = await stampingAccount(stack);
    const a = await receipt(account.testKey, ticket(account.merchantId, 'Café', 58, '04'));
    const b = await receipt(account.testKey, {
      ...ticket(account.merchantId, 'Pan', 20),
      items: [
        { productCode: '50181900', unitCode: 'H87', description: 'Pan', quantity: 2, unitPrice: 11.6 },
        {
          productCode: '50192100',
          unitCode: 'H87',
          description: 'Tortillas',
          quantity: 1,
          unitPrice: 30,
          taxable: false,
        },
      ],
    });
    const cancelled = await receipt(account.testKey, ticket(account.merchantId, 'Devuelto', 100));
    await post(account.testKey, `/v1/receipts/${cancelled.id}/cancel`, {});
    const invoiced = await receipt(account.testKey, ticket(account.merchantId, 'Facturado', 116));
    expect(
      (
        await post(account.testKey, `/v1/receipts/${invoiced.id}/invoice`, {
          receiver: RECEIVER,
          usoCfdi: 'G03',
        })
      ).status,
    ).toBe(201);
    const november = await receipt(
      account.testKey,
      ticket(account.merchantId, 'Noviembre', 58),
      '2026-11-02T18:00:00Z',
    );

    const res = await globalRun(account.testKey, account.merchantId);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'global', status: 'stamped', formaPago: '04', usoCfdi: 'S01' });
    const xml = await stampedXml(stack, res.body.id);
    assertSatConformant(xml);
    expect(verifySeal(xml).valid).toBe(true);
    expect(xml).toContain('<cfdi:InformacionGlobal Periodicidad="04" Meses="10" Año="2026"/>');
    expect(attributesOf(xml, 'Receptor')).toEqual({
      Rfc: 'XAXX010101000',
      Nombre: 'PUBLICO EN GENERAL',
      DomicilioFiscalReceptor: '42501',
      RegimenFiscalReceptor: '616',
      UsoCFDI: 'S01',
    });
    // One concept per ticket, and one per tax treatment of a ticket (b has IVA 16 % and exempt items).
    const lines = concepts(xml);
    expect(lines.map((c) => c.NoIdentificacion)).toEqual([a.id, b.id, b.id]);
    for (const line of lines)
      expect(line).toMatchObject({
        ClaveProdServ: '01010101',
        ClaveUnidad: 'ACT',
        Cantidad: '1',
        Descripcion: 'Venta',
      });
    expect(lines.map((c) => c.ValorUnitario)).toEqual(['50.00', '20.00', '30.00']);
    expect(res.body.total).toBe(58 + 23.2 + 30);

    for (const id of [a.id, b.id])
      expect((await get(account.testKey, `/v1/receipts/${id}`)).body).toMatchObject({
        status: 'in_global',
        invoiceId: res.body.id,
      });
    for (const [id, status] of [
      [cancelled.id, 'cancelled'],
      [invoiced.id, 'invoiced'],
      [november.id, 'open'],
    ])
      expect((await get(account.testKey, `/v1/receipts/${id}`)).body.status).toBe(status);
    const inGlobal = await events(account.accountId, 'receipt.in_global');
    expect(inGlobal.map((r) => [r.id, r.status, r.invoiceId]).sort()).toEqual(
      [a.id, b.id].sort().map((id) => [id, 'in_global', res.body.id]),
    );
    expect(await events(account.accountId, 'global_invoice.stamped')).toEqual([
      expect.objectContaining({ id: res.body.id, kind: 'global' }),
    ]);

    // Asked again: the same document, nothing new stored or charged.
    const again = await globalRun(account.testKey, account.merchantId);
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 201, id: res.body.id });
    expect(await globalDocuments(account.merchantId)).toEqual([{ id: res.body.id, status: 'stamped' }]);
    // An agent asking through MCP (the SDK client validates the result against the tool's output schema) gets it too.
    const agent = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
    try {
      const viaMcp = await callTool(agent, 'create_global_invoice', {
        merchantId: account.merchantId,
        ...OCTOBER,
      });
      expect(viaMcp.problem).toBeUndefined();
      expect(viaMcp.data).toMatchObject({ id: res.body.id, kind: 'global', status: 'stamped' });
      const empty = await callTool(agent, 'create_global_invoice', {
        merchantId: account.merchantId,
        date: '2026-09-15',
      });
      expect(empty.problem).toMatchObject({ status: 409, code: 'no_open_receipts' });
    } finally {
      await agent.close();
    }
    expect(await globalDocuments(account.merchantId)).toEqual([{ id: res.body.id, status: 'stamped' }]);
  }, 120_000);

  it('refuses a period not ended, one with nothing open, and another account’s merchant', async () => {
    const account = await stampingAccount(stack);
    const other = await stampingAccount(stack);
    await receipt(account.testKey, ticket(account.merchantId, 'Café', 58), '2026-11-02T18:00:00Z');
    const running = await globalRun(account.testKey, account.merchantId, { date: '2026-11-02' });
    expect({
      status: running.status,
      paths: running.body.errors.map((e: { path: string }) => e.path),
    }).toEqual({
      status: 400,
      paths: ['/date'],
    });
    const empty = await globalRun(account.testKey, account.merchantId);
    expect({ status: empty.status, code: empty.body.code }).toEqual({
      status: 409,
      code: 'no_open_receipts',
    });
    const bimonthly = await globalRun(account.testKey, account.merchantId, {
      date: '2026-10-01',
      periodicity: '05',
    });
    expect(bimonthly.body.errors?.[0]?.path).toBe('/periodicity');
    const foreign = await globalRun(other.testKey, account.merchantId);
    expect(notFound(foreign, account.merchantId)).toMatchObject({ status: 404 });
    expect(await globalDocuments(account.merchantId)).toEqual([]);
  }, 90_000);

  it.each(['customer', 'global'] as const)(
    'a customer invoicing a receipt while the global run takes it (%s first): the receipt ends in exactly one CFDI',
    async (first) => {
      const account = await stampingAccount(stack);
      const contested = await receipt(account.testKey, ticket(account.merchantId, 'Pastel', 348));
      const other = await receipt(account.testKey, ticket(account.merchantId, 'Galletas', 58));
      const byCustomer = () =>
        post(account.testKey, `/v1/receipts/${contested.id}/invoice`, { receiver: RECEIVER, usoCfdi: 'G03' });
      const byGlobal = () => globalRun(account.testKey, account.merchantId);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Force the race: hold the contested receipt's row lock while both requests pass their checks (prices, folio,
      // timbre reserved) and queue on it, `first` a second ahead; released together, the locks decide.
      const pending = await em().transactional(async (tx) => {
        await tx.execute('select id from receipts where id = ? for update', [contested.id]);
        const earlier = first === 'customer' ? byCustomer() : byGlobal();
        await pause(1_000);
        const later = first === 'customer' ? byGlobal() : byCustomer();
        await pause(1_500);
        return first === 'customer' ? [earlier, later] : [later, earlier];
      });
      const [customer, global] = await Promise.all(pending);
      expect(global!.status).toBe(201);
      const globalLines = concepts(await stampedXml(stack, global!.body.id)).map((c) => c.NoIdentificacion);
      const final = (await get(account.testKey, `/v1/receipts/${contested.id}`)).body;
      if (first === 'customer') {
        // The customer had it: the global run started over without it.
        expect(customer!.status).toBe(201);
        expect(final).toMatchObject({ status: 'invoiced', invoiceId: customer!.body.id });
        expect(globalLines).toEqual([other.id]);
      } else {
        expect({ status: customer!.status, code: customer!.body.code }).toEqual({
          status: 409,
          code: 'receipt_not_open',
        });
        expect(final).toMatchObject({ status: 'in_global', invoiceId: global!.body.id });
        expect(globalLines).toEqual([contested.id, other.id].sort());
      }
      // Every CFDI of the merchant: the losing side stored nothing and charged nothing.
      const documents = (await em().execute(`select id from documents where merchant_id = ?`, [
        account.merchantId,
      ])) as { id: string }[];
      expect(documents).toHaveLength(first === 'customer' ? 2 : 1);
      const consumes = (await em().execute(
        `select count(*)::int as n from transactions where account_id = ? and type = 'consume'`,
        [account.accountId],
      )) as { n: number }[];
      expect(consumes[0]!.n).toBe(documents.length);
    },
    90_000,
  );

  it('receipt.invoiced is emitted when the invoice is stamped, never for one the SAT refused', async () => {
    const account = await stampingAccount(stack);
    const refused = await receipt(
      account.testKey,
      ticket(account.merchantId, 'Equipo SANDBOX_REJECT_CFDI40145', 116),
    );
    expect(
      (
        await post(account.testKey, `/v1/receipts/${refused.id}/invoice`, {
          receiver: RECEIVER,
          usoCfdi: 'G03',
        })
      ).status,
    ).toBe(422);
    expect(await events(account.accountId, 'receipt.invoiced')).toEqual([]);
    const sale = await receipt(account.testKey, ticket(account.merchantId, 'Torta', 116));
    const res = await post(account.testKey, `/v1/receipts/${sale.id}/invoice`, {
      receiver: RECEIVER,
      usoCfdi: 'G03',
    });
    expect(res.status).toBe(201);
    const ordered = (await em().execute(
      `select type from events where account_id = ? and type in ('invoice.stamped', 'receipt.invoiced') order by id`,
      [account.accountId],
    )) as { type: string }[];
    expect(ordered.map((e) => e.type)).toEqual(['invoice.stamped', 'receipt.invoiced']);
  }, 90_000);

  it('a global invoice the SAT refuses gives its receipts back, and the next run stamps a new one', async () => {
    const account = await stampingAccount(stack);
    const sale = await receipt(account.testKey, ticket(account.merchantId, 'Café', 58));
    await fetch(`${stack.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind: 'reject', count: 1, params: { code: 'CFDI40149' } }),
    });
    const refused = await globalRun(account.testKey, account.merchantId);
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 422,
      code: 'sat_rejected',
    });
    expect((await get(account.testKey, `/v1/receipts/${sale.id}`)).body).toMatchObject({
      status: 'open',
      invoiceId: null,
    });
    expect(await events(account.accountId, 'receipt.in_global')).toEqual([]);
    const retried = await globalRun(account.testKey, account.merchantId);
    expect(retried.status).toBe(201);
    expect((await get(account.testKey, `/v1/receipts/${sale.id}`)).body).toMatchObject({
      status: 'in_global',
      invoiceId: retried.body.id,
    });
    expect((await globalDocuments(account.merchantId)).map((d) => d.status)).toEqual([
      'stamp_failed',
      'stamped',
    ]);
  }, 90_000);
});

describe('the merchant’s global-invoice Schedule', () => {
  const describeSchedule = async (merchantId: string) => {
    try {
      return await stack.api.deps.temporal.schedule.getHandle(globalInvoiceScheduleId(merchantId)).describe();
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return null;
      throw error;
    }
  };

  it('follows the setting, is recreated by the sync when lost, and its runs stamp each due period once', async () => {
    const account = await stampingAccount(stack);
    const merchant = `/v1/merchants/${account.merchantId}`;
    const patch = (body: unknown) => stack.api.request('PATCH', merchant, { key: account.testKey, body });
    expect(await describeSchedule(account.merchantId)).toBeNull();
    const on = await patch({ globalInvoice: { enabled: true }, receiptGraceDays: 3 });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({
      globalInvoice: { enabled: true, periodicity: '04' },
      receiptGraceDays: 3,
    });
    const schedule = await describeSchedule(account.merchantId);
    expect(schedule?.state.paused).toBe(false);
    expect(schedule?.action).toMatchObject({
      workflowType: 'merchantGlobalInvoicesWorkflow',
      args: [account.merchantId],
    });

    const off = await patch({ globalInvoice: { enabled: false } });
    expect(off.body.globalInvoice).toEqual({ enabled: false, periodicity: '04' });
    expect((await describeSchedule(account.merchantId))?.state.paused).toBe(true);
    expect((await patch({ globalInvoice: { enabled: true, periodicity: '05' } })).body.errors[0].path).toBe(
      '/globalInvoice/periodicity',
    );

    // Lost from Temporal (a reset): the sync recreates it.
    await patch({ globalInvoice: { enabled: true } });
    await stack.api.deps.temporal.schedule.getHandle(globalInvoiceScheduleId(account.merchantId)).delete();
    const sync = await stack.api.deps.temporal.workflow.execute('syncGlobalInvoiceSchedulesWorkflow', {
      workflowId: `sync-${account.merchantId}`,
      taskQueue: stack.taskQueue,
      args: [],
    });
    expect(sync.created).toContain(account.merchantId);
    expect((await describeSchedule(account.merchantId))?.state.paused).toBe(false);

    // October's receipts (its grace of 3 days long over); November's are not due yet.
    const a = await receipt(account.testKey, ticket(account.merchantId, 'Café', 58));
    const b = await receipt(account.testKey, ticket(account.merchantId, 'Pan', 20), '2026-10-31T23:00:00Z');
    const november = await receipt(
      account.testKey,
      ticket(account.merchantId, 'Té', 30),
      '2026-11-03T18:00:00Z',
    );
    const handle = stack.api.deps.temporal.schedule.getHandle(globalInvoiceScheduleId(account.merchantId));
    await handle.trigger();
    const stamped = await waitFor(
      async () => {
        const docs = await globalDocuments(account.merchantId);
        return docs[0]?.status === 'stamped' ? docs : undefined;
      },
      { timeoutMs: 60_000, what: 'the scheduled global invoice' },
    );
    expect(stamped).toHaveLength(1);
    const lines = concepts(await stampedXml(stack, stamped[0]!.id)).map((c) => c.NoIdentificacion);
    expect(lines).toEqual([a.id, b.id]);
    expect((await get(account.testKey, `/v1/receipts/${november.id}`)).body.status).toBe('open');
    // A second run of the Schedule has nothing due: still one document. The Schedule skips a run that
    // would overlap the first, so the first must have finished (it outlives the stamp it waits for).
    const first = (await handle.describe()).info.recentActions[0]!.action.workflow.workflowId;
    await stack.api.deps.temporal.workflow.getHandle(first).result();
    await handle.trigger();
    await waitFor(async () => ((await handle.describe()).info.recentActions.length >= 2 ? true : undefined), {
      what: 'the second scheduled run',
    });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await globalDocuments(account.merchantId)).toHaveLength(1);

    const deleted = await stack.api.request('DELETE', merchant, { key: account.testKey });
    expect(deleted.status).toBe(200);
    expect(await describeSchedule(account.merchantId)).toBeNull();
  }, 180_000);
});
