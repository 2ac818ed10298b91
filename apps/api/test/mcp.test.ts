import { getBalanceCentavos } from '@cfdi/services';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectMcp, hints } from './mcp-client';
import { nominaBody } from './nomina-fixtures';
import { retentionBody } from './retention-fixtures';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';
import { keyForAnotherMerchant } from './restricted-key';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

/** Signed file URLs are issued afresh on every read; everything else must be the REST resource exactly. */
/** Arguments of a stamping or cancelling tool, with the idempotency_key each of them requires. */
const keyed = <T extends object>(args: T) => ({ ...args, idempotency_key: idempotencyKey() });

const withoutUrls = (resource: any) => ({ ...resource, files: { status: resource.files.status } });

async function restGet(key: string, path: string) {
  const res = await stack.api.request('GET', path, { key });
  return res.body;
}

describe('MCP tool server', () => {
  let account: Awaited<ReturnType<typeof stampingAccount>>;
  let client: Client;
  beforeAll(async () => {
    account = await stampingAccount(stack);
    client = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
  }, 60_000);
  afterAll(async () => client?.close());

  it('initializes on /mcp/test with a test key and on /mcp with a live key', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'cfdi-platform' });
    expect(client.getInstructions()).toMatch(/idempotency_key/);
    const live = await connectMcp(stack.api.url, '/mcp', account.liveKey);
    expect(live.getServerCapabilities()?.tools).toBeDefined();
    await live.close();
  });

  it('refuses a key of the other mode with 401 naming the right endpoint, and points at the resource metadata', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const cases = [
      { path: '/mcp', key: account.testKey, names: '/mcp/test' },
      { path: '/mcp/test', key: account.liveKey, names: '/mcp' },
    ];
    for (const { path, key, names } of cases) {
      const res = await fetch(stack.api.url + path, {
        method: 'POST',
        body: JSON.stringify(init),
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
      });
      expect(res.status).toBe(401);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ code: 'unauthorized' });
      expect(body.detail).toContain(`${stack.api.config.api.publicBaseUrl}${names}`);
      expect(body.detail.endsWith(`${names}.`)).toBe(true);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${stack.api.config.api.publicBaseUrl}/.well-known/oauth-protected-resource${path}", error="invalid_token"`,
      );
    }
    const anonymous = await fetch(`${stack.api.url}/mcp/test`, {
      method: 'POST',
      body: JSON.stringify(init),
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/mcp\/test"$/,
    );
    await expect(connectMcp(stack.api.url, '/mcp', account.testKey)).rejects.toThrow();
  });

  it('create_invoice stamps once and charges once however often it is retried with its idempotency_key; the invoice is the REST one', async () => {
    const key = idempotencyKey();
    const args = { ...invoiceBody(account.merchantId, { folio: 'MCP-1' }), idempotency_key: key };
    const first = await callTool(client, 'create_invoice', args);
    expect(first.result.isError).toBeFalsy();
    expect(first.data).toMatchObject({
      object: 'invoice',
      status: 'stamped',
      folioText: 'MCP-1',
      total: 26700,
    });
    expect(first.text).toContain(first.data.uuid);
    expect(first.text).toContain(`idempotency_key: ${key}`);
    expect(withoutUrls(await restGet(account.testKey, `/v1/invoices/${first.data.id}`))).toEqual(
      withoutUrls(first.data),
    );

    const again = await callTool(client, 'create_invoice', args);
    expect(again.data.id).toBe(first.data.id);
    expect(again.result._meta).toEqual({ idempotencyKey: key, idempotencyReplayed: true });
    // The same key over REST with the same body is the same request: the stored answer, no new stamp.
    const rest = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': key },
      body: invoiceBody(account.merchantId, { folio: 'MCP-1' }),
    });
    expect(rest.headers.get('idempotency-replayed')).toBe('true');
    expect(rest.body.id).toBe(first.data.id);
    const em = stack.api.orm.em.fork();
    const stamped: { n: number }[] = await em.execute(
      "select count(*)::int as n from documents where account_id = ? and folio_text = 'MCP-1'",
      [account.accountId],
    );
    expect(stamped[0]!.n).toBe(1);
    const consumes: { n: number }[] = await em.execute(
      "select count(*)::int as n from transactions where account_id = ? and type = 'consume' and reference_id = ?",
      [account.accountId, first.data.id],
    );
    expect(consumes[0]!.n).toBe(1);
  }, 60_000);

  it('requires idempotency_key on every tool that stamps or cancels, so identical calls without one charge nothing', async () => {
    const { tools } = await client.listTools();
    // Saving a customer, product or receipt (or cancelling a receipt) charges nothing and reaches no one (closed
    // world); every other write reaches the SAT.
    const saving = [
      'create_customer',
      'update_customer',
      'create_product',
      'update_product',
      'create_receipt',
      'cancel_receipt',
    ];
    const writes = tools.filter((t) => !hints(t).readOnlyHint).map((t) => t.name);
    expect(writes.filter((name) => saving.includes(name)).sort()).toEqual([...saving].sort());
    expect(tools.filter((t) => saving.includes(t.name)).map((t) => hints(t).openWorldHint)).toEqual(
      saving.map(() => false),
    );
    const mutating = writes.filter((name) => !saving.includes(name));
    expect(mutating.sort()).toEqual(
      [
        'cancel_invoice',
        'cancel_nomina',
        'cancel_payment',
        'cancel_retention',
        'create_credit_note',
        'create_global_invoice',
        'create_invoice',
        'create_nomina',
        'create_payment',
        'create_retention',
        'invoice_receipts',
        'send_document_email',
        'stamp_draft',
        'update_draft',
      ].sort(),
    );
    // E-mail charges nothing and each call is one more message: neither a key nor idempotent (checked below).
    // Editing a draft stamps and charges nothing, and an edit repeated is the same draft: it takes no key. A global
    // invoice's period is its key: asked again, the period's document (global-invoices.test.ts).
    const keyless = ['send_document_email', 'update_draft', 'create_global_invoice'];
    const charging = mutating.filter((name) => !keyless.includes(name));
    expect(hints(tools.find((t) => t.name === 'create_global_invoice')!).idempotentHint).toBe(true);
    expect(hints(tools.find((t) => t.name === 'send_document_email')!).idempotentHint).toBe(false);
    for (const tool of tools.filter((t) => charging.includes(t.name))) {
      expect([tool.name, tool.inputSchema.required]).toEqual([
        tool.name,
        expect.arrayContaining(['idempotency_key']),
      ]);
      // True now: the same call, key included, is the same document.
      expect(hints(tool).idempotentHint).toBe(true);
    }
    const em = stack.api.orm.em.fork();
    const before = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });
    // What an agent's retry of a timed-out call looks like: the same arguments twice, without a key.
    const args = invoiceBody(account.merchantId, { folio: 'MCP-NOKEY' });
    for (const attempt of [1, 2]) {
      const refused = await callTool(client, 'create_invoice', args);
      expect([attempt, refused.result.isError, refused.problem.errors]).toEqual([
        attempt,
        true,
        [{ path: '/idempotency_key', message: 'is required' }],
      ]);
    }
    for (const [name, toolArgs] of [
      [
        'create_credit_note',
        { merchantId: account.merchantId, relatedInvoiceId: 'inv_x', formaPago: '15', items: [] },
      ],
      ['cancel_invoice', { id: 'inv_x', motivo: '02' }],
      ['create_payment', { invoiceId: 'inv_x', monto: 1, formaPago: '03' }],
      ['cancel_payment', { id: 'pay_x', motivo: '02' }],
      ['create_nomina', nominaBody(account.merchantId)],
      ['cancel_nomina', { id: 'nom_x', motivo: '02' }],
      ['create_retention', retentionBody(account.merchantId)],
      ['cancel_retention', { id: 'ret_x', motivo: '02' }],
    ] as const) {
      const refused = await callTool(client, name, toolArgs as Record<string, unknown>);
      expect([name, refused.result.isError]).toEqual([name, true]);
      expect(refused.problem.errors).toContainEqual({ path: '/idempotency_key', message: 'is required' });
    }
    const documents: { n: number }[] = await em.execute(
      "select count(*)::int as n from documents where account_id = ? and folio_text = 'MCP-NOKEY'",
      [account.accountId],
    );
    expect(documents[0]!.n).toBe(0);
    expect(await getBalanceCentavos(em, { accountId: account.accountId, livemode: false })).toBe(before);
  }, 60_000);

  it('answers invalid arguments with isError naming every field path, as REST does, and charges nothing', async () => {
    const before = await getBalanceCentavos(stack.api.orm.em.fork(), {
      accountId: account.accountId,
      livemode: false,
    });
    const body = invoiceBody(account.merchantId);
    const bad = {
      ...body,
      idempotency_key: idempotencyKey(),
      bogus: 1,
      items: [{ ...body.items[0], unitPrice: 'abc' }],
      receiver: { ...body.receiver, zip: 123 },
    };
    const mcp = await callTool(client, 'create_invoice', bad);
    expect(mcp.result.isError).toBe(true);
    expect(mcp.result.structuredContent).toBeUndefined();
    expect(mcp.problem).toMatchObject({
      status: 400,
      code: 'validation_error',
      idempotency_key: bad.idempotency_key,
    });
    const { idempotency_key: _key, bogus: _bogus, ...restBody } = { ...bad, idempotency_key: undefined };
    const rest = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: { ...restBody, bogus: 1 },
    });
    expect(mcp.problem.errors).toEqual(rest.body.errors);
    expect(mcp.problem.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/bogus',
      '/items/0/unitPrice',
      '/receiver/zip',
    ]);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(before);

    const fiscal = await callTool(
      client,
      'create_invoice',
      keyed(invoiceBody(account.merchantId, { formaPago: '99' })),
    );
    expect(fiscal.problem).toMatchObject({
      code: 'validation_error',
      errors: [expect.objectContaining({ path: '/formaPago' })],
    });
  }, 60_000);

  it('reads, lists, pays, credits and cancels through the tools, each outcome the same as REST', async () => {
    const ppd = await callTool(
      client,
      'create_invoice',
      keyed(invoiceBody(account.merchantId, { metodoPago: 'PPD', formaPago: '99' })),
    );
    expect(ppd.data).toMatchObject({ status: 'stamped', metodoPago: 'PPD', saldoPendiente: 26700 });

    const got = await callTool(client, 'get_invoice', { id: ppd.data.id });
    expect(withoutUrls(got.data)).toEqual(
      withoutUrls(await restGet(account.testKey, `/v1/invoices/${ppd.data.id}`)),
    );
    const listed = await callTool(client, 'list_invoices', { metodoPago: 'PPD', limit: 5 });
    const restList = await restGet(account.testKey, '/v1/invoices?metodoPago=PPD&limit=5');
    expect(listed.data.data.map((i: any) => i.id)).toEqual(restList.data.map((i: any) => i.id));
    expect(listed.data.data[0].id).toBe(ppd.data.id);

    const payment = await callTool(
      client,
      'create_payment',
      keyed({ invoiceId: ppd.data.id, monto: 1000, formaPago: '03' }),
    );
    expect(payment.data).toMatchObject({
      object: 'payment',
      status: 'stamped',
      numParcialidad: 1,
      saldoAnterior: 26700,
      saldoInsoluto: 25700,
    });
    expect(withoutUrls((await callTool(client, 'get_payment', { id: payment.data.id })).data)).toEqual(
      withoutUrls(await restGet(account.testKey, `/v1/payments/${payment.data.id}`)),
    );
    const payments = await callTool(client, 'list_payments', { invoiceId: ppd.data.id });
    expect(payments.data).toMatchObject({
      object: 'list',
      has_more: false,
      data: [expect.objectContaining({ id: payment.data.id })],
    });
    expect((await restGet(account.testKey, `/v1/invoices/${ppd.data.id}`)).saldoPendiente).toBe(25700);

    const cancelledPayment = await callTool(
      client,
      'cancel_payment',
      keyed({ id: payment.data.id, motivo: '02' }),
    );
    expect(cancelledPayment.data.cancellation).toMatchObject({ motivo: '02' });
    expect(['cancelled', 'cancel_pending']).toContain(cancelledPayment.data.status);
    expect((await restGet(account.testKey, `/v1/payments/${payment.data.id}`)).status).toBe(
      cancelledPayment.data.status,
    );

    const pue = await callTool(client, 'create_invoice', keyed(invoiceBody(account.merchantId)));
    const note = await callTool(
      client,
      'create_credit_note',
      keyed({
        merchantId: account.merchantId,
        relatedInvoiceId: pue.data.id,
        formaPago: '03',
        items: [
          { productCode: '84111506', unitCode: 'ACT', description: 'Descuento', quantity: 1, unitPrice: 116 },
        ],
      }),
    );
    expect(note.data).toMatchObject({
      kind: 'credit_note',
      status: 'stamped',
      relatedInvoiceId: pue.data.id,
      total: 116,
    });
    expect((await restGet(account.testKey, `/v1/invoices/${note.data.id}`)).kind).toBe('credit_note');

    // The SAT refuses to cancel an invoice with a credit note in force: the refusal arrives with its satCode.
    const refused = await callTool(client, 'cancel_invoice', keyed({ id: pue.data.id, motivo: '02' }));
    expect(refused.problem).toMatchObject({ status: 422, code: 'sat_rejected', satCode: 'no_cancelable' });

    const small = await callTool(
      client,
      'create_invoice',
      keyed(
        invoiceBody(account.merchantId, {
          items: [
            { productCode: '43211503', unitCode: 'H87', description: 'Mouse', quantity: 1, unitPrice: 500 },
          ],
        }),
      ),
    );
    const cancelled = await callTool(client, 'cancel_invoice', keyed({ id: small.data.id, motivo: '02' }));
    expect(cancelled.data).toMatchObject({ id: small.data.id, status: 'cancelled' });
    expect((await restGet(account.testKey, `/v1/invoices/${small.data.id}`)).status).toBe('cancelled');
  }, 120_000);

  it('stamps, reads, lists and cancels a payroll receipt through the tools, each outcome the same as REST', async () => {
    const key = idempotencyKey();
    const created = await callTool(client, 'create_nomina', {
      ...nominaBody(account.merchantId, { folio: 'MCP-NOM' }),
      idempotency_key: key,
    });
    expect(created.data).toMatchObject({
      object: 'nomina',
      status: 'stamped',
      folioText: 'MCP-NOM',
      uuid: expect.any(String),
    });
    expect(created.text).toContain(created.data.uuid);
    const again = await callTool(client, 'create_nomina', {
      ...nominaBody(account.merchantId, { folio: 'MCP-NOM' }),
      idempotency_key: key,
    });
    expect(again.data.id).toBe(created.data.id);
    expect(again.result._meta).toMatchObject({ idempotencyReplayed: true });

    const got = await callTool(client, 'get_nomina', { id: created.data.id });
    expect(withoutUrls(got.data)).toEqual(
      withoutUrls(await restGet(account.testKey, `/v1/nominas/${created.data.id}`)),
    );
    const listed = await callTool(client, 'list_nominas', {
      employeeRfc: created.data.employee.rfc,
      limit: 5,
    });
    const restList = await restGet(
      account.testKey,
      `/v1/nominas?employeeRfc=${created.data.employee.rfc}&limit=5`,
    );
    expect(listed.data.data.map((n: any) => n.id)).toEqual(restList.data.map((n: any) => n.id));
    expect(listed.data.data[0].id).toBe(created.data.id);

    const cancelled = await callTool(client, 'cancel_nomina', keyed({ id: created.data.id, motivo: '02' }));
    expect(cancelled.data).toMatchObject({ id: created.data.id, status: 'cancelled' });
    expect((await restGet(account.testKey, `/v1/nominas/${created.data.id}`)).status).toBe('cancelled');

    const invalid = await callTool(
      client,
      'create_nomina',
      keyed({ ...nominaBody(account.merchantId), period: 'x' }),
    );
    expect(invalid.problem).toMatchObject({
      status: 400,
      code: 'validation_error',
      errors: [expect.objectContaining({ path: '/period' })],
    });
  }, 120_000);

  it('stamps, reads, lists and cancels a withholding certificate through the tools, each outcome the same as REST', async () => {
    const em = stack.api.orm.em.fork();
    const before = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });
    const key = idempotencyKey();
    const args = { ...retentionBody(account.merchantId, { folioInt: 'MCPRET1' }), idempotency_key: key };
    const created = await callTool(client, 'create_retention', args);
    expect(created.data).toMatchObject({
      object: 'retention',
      status: 'stamped',
      folioInt: 'MCPRET1',
      uuid: expect.any(String),
      totals: { montoTotOperacion: 51234.5, montoTotRet: 15333.33 },
    });
    expect(created.text).toContain(created.data.uuid);
    expect(created.text).toContain('withholding certificate');
    // A retry with the same key is the same certificate, stamped and charged once.
    const again = await callTool(client, 'create_retention', args);
    expect(again.data.id).toBe(created.data.id);
    expect(again.result._meta).toMatchObject({ idempotencyReplayed: true });
    const charged = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });

    const got = await callTool(client, 'get_retention', { id: created.data.id });
    expect(withoutUrls(got.data)).toEqual(
      withoutUrls(await restGet(account.testKey, `/v1/retentions/${created.data.id}`)),
    );
    const listed = await callTool(client, 'list_retentions', { receiverRfc: 'URE180429TM6', limit: 5 });
    const restList = await restGet(account.testKey, '/v1/retentions?receiverRfc=URE180429TM6&limit=5');
    expect(listed.data.data.map((r: any) => r.id)).toEqual(restList.data.map((r: any) => r.id));
    expect(listed.data.data[0].id).toBe(created.data.id);
    expect(listed.text).toContain('withholding certificates, newest first');

    const cancelled = await callTool(
      client,
      'cancel_retention',
      keyed({ id: created.data.id, motivo: '02' }),
    );
    expect(cancelled.data).toMatchObject({ id: created.data.id, status: 'cancelled' });
    expect((await restGet(account.testKey, `/v1/retentions/${created.data.id}`)).status).toBe('cancelled');
    // One timbre for the stamp (not two for the retry), one for the cancellation.
    const after = await getBalanceCentavos(em, { accountId: account.accountId, livemode: false });
    expect([before - charged, charged - after]).toEqual([before - charged, before - charged]);
    expect(before - charged).toBeGreaterThan(0);

    // The certificate's rules answer with their paths, as REST does, and charge nothing.
    const invalid = await callTool(
      client,
      'create_retention',
      keyed(retentionBody(account.merchantId, { period: { mesIni: 5, mesFin: 2, ejercicio: 2025 } })),
    );
    expect(invalid.problem).toMatchObject({
      status: 400,
      errors: [expect.objectContaining({ path: expect.stringMatching(/^\/period/) })],
    });
    expect(await getBalanceCentavos(em, { accountId: account.accountId, livemode: false })).toBe(after);
  }, 120_000);

  it('lists merchants, the balance and the catalogs as REST does', async () => {
    const merchants = await callTool(client, 'list_merchants', {});
    expect(merchants.data.data.map((m: any) => m.id)).toEqual([account.merchantId]);
    expect(merchants.text).toContain(account.merchantId);
    const balance = await callTool(client, 'get_balance');
    expect(balance.data).toEqual(await restGet(account.testKey, '/v1/balance'));
    expect(balance.text).toMatch(/^Balance [\d,.]+ MXN \(test mode\)/);
    const products = await callTool(client, 'search_product_codes', { keyword: 'computadora', limit: 5 });
    expect(products.data).toEqual(
      await restGet(account.testKey, '/v1/catalogs/products?keyword=computadora&limit=5'),
    );
    expect(products.data.data.length).toBeGreaterThan(0);
    const units = await callTool(client, 'search_unit_codes', { keyword: 'pieza' });
    expect(units.data).toEqual(await restGet(account.testKey, '/v1/catalogs/units?keyword=pieza'));
    expect(units.data.data.map((u: any) => u.clave)).toContain('H87');
    for (const catalog of ['usos-cfdi', 'regimenes', 'formas-pago']) {
      expect((await callTool(client, 'get_catalog', { catalog })).data).toEqual(
        await restGet(account.testKey, `/v1/catalogs/${catalog}`),
      );
    }
    expect((await callTool(client, 'get_catalog', { catalog: 'productos' })).problem.errors).toEqual([
      { path: '/catalog', message: expect.stringContaining('usos-cfdi') },
    ]);
  }, 60_000);

  it('finds no document of another account or of the other mode, and refuses a merchant outside a restricted key', async () => {
    const invoice = await callTool(client, 'create_invoice', keyed(invoiceBody(account.merchantId)));
    const other = await stack.api.newAccount();
    const stranger = await connectMcp(stack.api.url, '/mcp/test', other.testKey);
    const live = await connectMcp(stack.api.url, '/mcp', account.liveKey);
    for (const [who, tool] of [
      [stranger, 'get_invoice'],
      [live, 'get_invoice'],
      [stranger, 'cancel_invoice'],
    ] as const) {
      const res = await callTool(who, tool, {
        id: invoice.data.id,
        ...(tool === 'cancel_invoice' ? { motivo: '02', idempotency_key: idempotencyKey() } : {}),
      });
      expect(res.problem).toMatchObject({ status: 404, code: 'not_found' });
    }
    expect((await callTool(live, 'list_invoices', {})).data.data).toEqual([]);

    const secret = await keyForAnotherMerchant(stack.api, account);
    const restricted = await connectMcp(stack.api.url, '/mcp/test', secret);
    expect((await callTool(restricted, 'get_invoice', { id: invoice.data.id })).problem).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(
      (await callTool(restricted, 'create_invoice', keyed(invoiceBody(account.merchantId)))).problem,
    ).toMatchObject({ status: 403, code: 'forbidden' });
    await Promise.all([stranger.close(), live.close(), restricted.close()]);
  }, 60_000);

  it('answers an unknown tool with a JSON-RPC error, not a result', async () => {
    const error = await client
      .callTool({ name: 'delete_everything', arguments: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
  });

  it('answers with SSE or JSON as the client asks, refuses bodies over 1 MB and stateless GETs', async () => {
    const call = (accept: string, body: unknown) =>
      fetch(`${stack.api.url}/mcp/test`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json', accept },
      });
    const list = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'get_balance', arguments: {} },
    };
    const sse = await call('text/event-stream', list);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await sse.text()).toMatch(/event: message\ndata: \{"result":\{.*"balanceCentavos"/);
    const json = await call('application/json', list);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as any).result.structuredContent.object).toBe('balance');
    const preferred = await call('application/json;q=0.5, text/event-stream', list);
    expect(preferred.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const huge = await call('application/json, text/event-stream', {
      ...list,
      params: { name: 'get_balance', arguments: { pad: 'x'.repeat(1024 * 1024) } },
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()) as any).toMatchObject({ code: 'payload_too_large' });
    const get = await fetch(`${stack.api.url}/mcp/test`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${account.testKey}` },
    });
    expect(get.status).toBe(405);
  });

  it("applies the account's rate limit to tool calls (isError rate_limited)", async () => {
    const limited = await stack.api.newAccount({ rateLimitPerMinute: 4 });
    const agent = await connectMcp(stack.api.url, '/mcp/test', limited.testKey);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await callTool(agent, 'get_balance');
      outcomes.push(res.problem?.code ?? 'ok');
    }
    expect(outcomes).toContain('ok');
    expect(outcomes.at(-1)).toBe('rate_limited');
    await agent.close();
  });
});
