import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { FinkokPac } from '@cfdi/pac';
import { getBalanceCentavos, recordReconciliation, requestHash, SANDBOX_CREDENTIALS } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { runCli } from './cli';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  // Reconciliation lookups far in the future: in these tests the operator decides.
  stack = await startStack({ RECONCILIATION_FIRST_LOOKUP_SECONDS: '3600' });
}, 60_000);
afterAll(async () => stack?.close(), 60_000);
afterEach(async () => {
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
});

const post = (key: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', '/v1/invoices', { key, headers: { 'idempotency-key': ik }, body });
const balance = (accountId: string) =>
  getBalanceCentavos(stack.api.orm.em.fork(), { accountId, livemode: false });
const ledger = async (accountId: string) =>
  (await stack.api.orm.em
    .fork()
    .execute(
      'select type, delta_centavos, reference_id from transactions where account_id = ? and livemode = false and type <> ? order by seq',
      [accountId, 'seed'],
    )) as { type: string; delta_centavos: string; reference_id: string }[];
async function injectFault(operation: string, kind: string, count = 1, params: Record<string, unknown> = {}) {
  const res = await fetch(`${stack.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ operation, kind, count, params }),
  });
  expect(res.status).toBeLessThan(300);
}
const row = async (id: string) =>
  (await stack.api.orm.em.fork().execute('select * from documents where id = ?', [id]))[0] as any;

/** An invoice whose stamp request the PAC reset (nothing stamped): 202, then awaiting reconciliation. */
async function awaitingReconciliation(account: Awaited<ReturnType<typeof stampingAccount>>) {
  await injectFault('stamp', 'reset');
  const res = await post(account.testKey, invoiceBody(account.merchantId));
  expect(res.status).toBe(202);
  await waitFor(async () => ((await row(res.body.id)).needs_reconciliation ? true : undefined), {
    what: 'needsReconciliation',
  });
  return res;
}

it('stamps in the API when nothing follows the stamp (201, no workflow); a document whose files render on the files queue goes through its workflow', async () => {
  const account = await stampingAccount(stack);
  const workflow = (id: string) => stack.api.deps.temporal.workflow.getHandle(`stamp-${id}`).describe();
  const small = await post(account.testKey, invoiceBody(account.merchantId));
  expect(small.status).toBe(201);
  expect(small.body.files.status).toBe('ready');
  await expect(workflow(small.body.id)).rejects.toThrow(WorkflowNotFoundError);
  expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);

  const item = invoiceBody(account.merchantId).items[0]!;
  const large = await post(account.testKey, {
    ...invoiceBody(account.merchantId),
    items: Array.from({ length: stack.api.config.filesInlineMaxItems + 1 }, () => ({ ...item, quantity: 1 })),
  });
  expect(large.status).toBe(201);
  expect((await workflow(large.body.id)).status.name).toMatch(/RUNNING|COMPLETED/);
  await waitFor(
    async () =>
      (await stack.api.request('GET', `/v1/invoices/${large.body.id}`, { key: account.testKey })).body.files
        .status === 'ready' || undefined,
    { what: 'the large invoice’s files' },
  );
}, 60_000);

it('answers 422 sat_rejected with satCode and refunds the reservation', async () => {
  const account = await stampingAccount(stack);
  const body = invoiceBody(account.merchantId);
  body.items[0]!.description = 'Equipo SANDBOX_REJECT_CFDI40145';
  const res = await post(account.testKey, body);
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  expect(res.body).toMatchObject({ code: 'sat_rejected', satCode: 'CFDI40145' });
  expect(await balance(account.accountId)).toBe(100000);
  const entries = await ledger(account.accountId);
  expect(entries.map((e) => e.type)).toEqual(['consume', 'refund']);
  const [invoice] = (
    await stack.api.request('GET', '/v1/invoices?status=stamp_failed', { key: account.testKey })
  ).body.data;
  expect(invoice).toMatchObject({ status: 'stamp_failed', uuid: null, failure: { code: 'CFDI40145' } });
}, 60_000);

it('a document the engine cannot write fails for good (422 invalid_document, refunded at once), never 503 pac_unavailable', async () => {
  const account = await stampingAccount(stack);
  // A legal name stored before the API refused control characters (issue #34: every stamp of such a merchant was
  // retried for ~4 s and answered as a retryable 503).
  await stack.api.orm.em
    .fork()
    .execute('update merchants set legal_name = ? where id = ?', [
      'ESCUELA KEMPER\u001fURGATE',
      account.merchantId,
    ]);
  const res = await post(account.testKey, invoiceBody(account.merchantId));
  expect({ status: res.status, code: res.body.code, satCode: res.body.satCode }).toEqual({
    status: 422,
    code: 'sat_rejected',
    satCode: 'invalid_document',
  });
  expect(res.body.detail).toMatch(/issuer\.legalName contains a control character/);
  expect(await balance(account.accountId)).toBe(100000);
  const [invoice] = (
    await stack.api.request('GET', '/v1/invoices?status=stamp_failed', { key: account.testKey })
  ).body.data;
  expect(invoice).toMatchObject({
    status: 'stamp_failed',
    uuid: null,
    failure: { code: 'invalid_document' },
  });
}, 60_000);

it('answers 503 pac_unavailable when the PAC cannot be reached, refunds, and a retry with the same key stamps', async () => {
  const account = await stampingAccount(stack);
  const ik = idempotencyKey();
  await injectFault('stamp', 'http_500', 10);
  const down = await post(account.testKey, invoiceBody(account.merchantId), ik);
  expect(down.status).toBe(503);
  expect(down.body.code).toBe('pac_unavailable');
  expect(await balance(account.accountId)).toBe(100000);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  const retry = await post(account.testKey, invoiceBody(account.merchantId), ik);
  expect(retry.status).toBe(201);
  expect(retry.headers.get('idempotency-replayed')).toBeNull();
  expect(await balance(account.accountId)).toBe(100000 - 100);
}, 60_000);

it('answers 503 (not a stored 422) when a retry after a crash finds the document failed for an unreachable PAC; the key then stamps', async () => {
  const account = await stampingAccount(stack);
  const ik = idempotencyKey();
  const body = invoiceBody(account.merchantId);
  await injectFault('stamp', 'http_500', 10);
  const down = await post(account.testKey, body, ik);
  expect(down.status).toBe(503);
  await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  const [failed] = (
    await stack.api.request('GET', '/v1/invoices?status=stamp_failed', { key: account.testKey })
  ).body.data;
  // As if the API had died after committing that document, before answering: the key still claimed, bound to it.
  await stack.api.orm.em.fork().execute(
    `insert into idempotency_keys (account_id, livemode, key, operation, request_hash, state, resource_id, locked_until)
     values (?, false, ?, 'POST /v1/invoices', ?, 'in_flight', ?, now() - interval '1 second')`,
    [account.accountId, ik, requestHash('POST /v1/invoices', body), failed.id],
  );

  const recovered = await post(account.testKey, body, ik);
  expect({ status: recovered.status, code: recovered.body.code }).toEqual({
    status: 503,
    code: 'pac_unavailable',
  });
  const retried = await post(account.testKey, body, ik);
  expect({ status: retried.status, replayed: retried.headers.get('idempotency-replayed') }).toEqual({
    status: 201,
    replayed: null,
  });
  expect(await balance(account.accountId)).toBe(100000 - 100);
}, 60_000);

it('answers 202 when the wait runs out, then the invoice reaches stamped on its own', async () => {
  const slow = await startStack({ STAMP_WAIT_MS: '300' });
  try {
    const account = await stampingAccount(slow);
    await fetch(`${slow.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind: 'latency', count: 1, params: { ms: 1500 } }),
    });
    const res = await slow.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^inv_/),
      object: 'invoice',
      livemode: false,
      status: 'stamping',
      kind: 'nominal',
      uuid: null,
      files: { status: 'pending' },
      stampedAt: null,
      createdAt: expect.any(String),
    });
    const stamped = await waitFor(
      async () => {
        const current = await slow.api.request('GET', `/v1/invoices/${res.body.id}`, {
          key: account.testKey,
        });
        return current.body.status === 'stamped' ? current.body : undefined;
      },
      { what: 'the invoice to be stamped' },
    );
    expect(stamped.uuid).toMatch(/^[0-9A-F-]{36}$/);
  } finally {
    await slow.close();
  }
}, 90_000);

describe('ambiguous PAC failures', () => {
  it('flags needsReconciliation, keeps the reservation, and an operator resolves it as stamped from the CLI', async () => {
    const account = await stampingAccount(stack);
    await injectFault('stamp', 'process_then_reset');
    const res = await post(account.testKey, invoiceBody(account.merchantId));
    expect(res.status).toBe(202);
    const pending = (await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey }))
      .body;
    expect(pending).toMatchObject({ status: 'stamping', needsReconciliation: true, uuid: null });
    expect(await balance(account.accountId)).toBe(100000 - 100);

    const list = await runCli(stack.api.config, ['reconcile', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((d: { id: string }) => d.id)).toContain(res.body.id);

    // The operator looks the document up at the PAC (here: the already-stamped question with the persisted XML).
    const sandboxPac = new FinkokPac({ url: stack.sandbox.url, ...SANDBOX_CREDENTIALS });
    const found = await sandboxPac.lookupStamped((await row(res.body.id)).sealed_xml);
    sandboxPac.close();
    if (found.outcome !== 'stamped') throw new Error(`sandbox should hold the stamp, got ${found.outcome}`);
    const resolved = await runCli(stack.api.config, [
      'reconcile',
      'resolve',
      res.body.id,
      '--stamped',
      '--uuid',
      found.uuid,
      '--note',
      'seen in the PAC portal',
      '--by',
      'ana',
    ]);
    expect(resolved.code).toBe(0);

    const stamped = await waitFor(
      async () => {
        const current = (
          await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey })
        ).body;
        return current.status === 'stamped' && current.files.status === 'ready' ? current : undefined;
      },
      { what: 'the reconciled invoice' },
    );
    expect(stamped).toMatchObject({ uuid: found.uuid, needsReconciliation: false });
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);
    expect((await row(res.body.id)).reservation_state).toBe('confirmed');
    const shown = await runCli(stack.api.config, ['reconcile', 'show', res.body.id, '--json']);
    expect(JSON.parse(shown.stdout).resolutions).toEqual([
      expect.objectContaining({
        resolution: 'stamped',
        uuid: found.uuid,
        resolved_by: 'ana',
        note: 'seen in the PAC portal',
      }),
    ]);
    // A resolved document is no longer awaiting: the CLI refuses a second decision.
    const again = await runCli(stack.api.config, [
      'reconcile',
      'resolve',
      res.body.id,
      '--not-stamped',
      '--note',
      'late',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not awaiting reconciliation/);
  }, 90_000);

  it('an operator resolves it as not stamped: stamp_failed and the timbre refunded exactly once', async () => {
    const account = await stampingAccount(stack);
    const res = await awaitingReconciliation(account);
    const resolved = await runCli(stack.api.config, [
      'reconcile',
      'resolve',
      res.body.id,
      '--not-stamped',
      '--by',
      'ops',
      '--note',
      'PAC has no record',
    ]);
    expect(resolved.code).toBe(0);
    const failed = await waitFor(
      async () => {
        const current = (
          await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey })
        ).body;
        return current.status === 'stamp_failed' ? current : undefined;
      },
      { what: 'the invoice to fail' },
    );
    expect(failed.needsReconciliation).toBe(false);
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume', 'refund']);
    expect(await balance(account.accountId)).toBe(100000);

    // The workflow step that recorded the decision runs again, as after a worker crash before its result was saved.
    await recordReconciliation(stack.api.orm.em.fork(), res.body.id, {
      stamped: false,
      resolvedBy: 'ops',
      note: 'PAC has no record',
    });
    const shown = JSON.parse(
      (await runCli(stack.api.config, ['reconcile', 'show', res.body.id, '--json'])).stdout,
    );
    expect(shown.resolutions).toEqual([
      expect.objectContaining({ resolution: 'not_stamped', resolved_by: 'ops', note: 'PAC has no record' }),
    ]);
  }, 90_000);

  it("the CLI refuses decisions it cannot carry out, saying why with the services' rules: no decision, missing or malformed --uuid, --uuid or --without-xml with --not-stamped, a blank --note, another document's UUID, a UUID the PAC cannot confirm", async () => {
    const account = await stampingAccount(stack);
    const stamped = await post(account.testKey, invoiceBody(account.merchantId));
    expect(stamped.status).toBe(201);
    const res = await awaitingReconciliation(account);
    const why = ['--note', 'checked the PAC portal'];
    const cases: [string[], RegExp][] = [
      [why, /Choose "stamped" or "not_stamped". \(--stamped or --not-stamped\)/],
      [['--stamped', '--not-stamped', ...why], /Choose "stamped" or "not_stamped"/],
      [['--stamped', ...why], /A "stamped" decision needs the stamp's UUID. \(--uuid\)/],
      [['--stamped', '--uuid', 'not-a-uuid', ...why], /The UUID must be 8-4-4-4-12 hexadecimal digits/],
      [
        ['--not-stamped', '--uuid', stamped.body.uuid, ...why],
        /The UUID goes with a "stamped" decision only/,
      ],
      [['--not-stamped', '--without-xml', ...why], /"Without XML" goes with a "stamped" decision only/],
      [['--not-stamped', '--note', '   '], /Say why: the note is kept with the decision. \(--note\)/],
      [['--stamped', '--uuid', stamped.body.uuid, ...why], new RegExp(`is the stamp of ${stamped.body.id}`)],
      // The PAC never stamped it (the request was reset): a made-up UUID would confirm it without XML or files.
      [['--stamped', '--uuid', randomUUID().toUpperCase(), ...why], /the PAC cannot confirm .*--without-xml/],
    ];
    for (const [args, message] of cases) {
      const refused = await runCli(stack.api.config, ['reconcile', 'resolve', res.body.id, ...args]);
      expect({ args, code: refused.code, stderr: refused.stderr }).toEqual({
        args,
        code: 1,
        stderr: expect.stringMatching(message),
      });
    }
    expect(await row(res.body.id)).toMatchObject({
      status: 'stamping',
      needs_reconciliation: true,
      reservation_state: 'reserved',
    });
    expect(
      (
        await runCli(stack.api.config, [
          'reconcile',
          'resolve',
          res.body.id,
          '--not-stamped',
          '--note',
          'no record at the PAC',
        ])
      ).code,
    ).toBe(0);
    await waitFor(async () => ((await row(res.body.id)).status === 'stamp_failed' ? true : undefined), {
      what: 'stamp_failed',
    });
  }, 90_000);

  it("records an operator's decision that arrives while the PAC is asked for the last time, instead of dropping it", async () => {
    const quick = await startStack({
      RECONCILIATION_FIRST_LOOKUP_SECONDS: '1',
      RECONCILIATION_MAX_LOOKUP_SECONDS: '1',
    });
    try {
      const account = await stampingAccount(quick);
      const fault = (operation: string, kind: string, count: number, params: Record<string, unknown> = {}) =>
        fetch(`${quick.sandbox.url}/sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ operation, kind, count, params }),
        });
      await fault('stamp', 'reset', 1);
      // The deciding (second) lookup is slow enough for the CLI to start and send the decision while it runs, even on
      // a loaded machine: the CLI alone can take several seconds to start.
      await fault('stamped', 'latency', 1, { ms: 1 });
      await fault('stamped', 'latency', 1, { ms: 20_000 });
      const res = await quick.api.request('POST', '/v1/invoices', {
        key: account.testKey,
        headers: { 'idempotency-key': idempotencyKey() },
        body: invoiceBody(account.merchantId),
      });
      expect(res.status).toBe(202);
      // Both slow lookups taken: the second, deciding one is in flight.
      await waitFor(
        async () => {
          const armed = (await (await fetch(`${quick.sandbox.url}/sandbox/faults`)).json()) as {
            faults: { operation: string }[];
          };
          return armed.faults.some((f) => f.operation === 'stamped') ? undefined : true;
        },
        { what: 'the second lookup in flight', timeoutMs: 30_000 },
      );
      const sent = await runCli(quick.api.config, [
        'reconcile',
        'resolve',
        res.body.id,
        '--not-stamped',
        '--by',
        'carla',
        '--note',
        'no record at the PAC',
      ]);
      expect(sent.code).toBe(0);
      const quickRow = async () =>
        (
          await quick.api.orm.em.fork().execute('select status from documents where id = ?', [res.body.id])
        )[0] as { status: string };
      await waitFor(async () => ((await quickRow()).status === 'stamp_failed' ? true : undefined), {
        what: 'stamp_failed',
        timeoutMs: 30_000,
      });
      const shown = JSON.parse(
        (await runCli(quick.api.config, ['reconcile', 'show', res.body.id, '--json'])).stdout,
      );
      expect(shown.resolutions).toEqual([
        expect.objectContaining({
          resolution: 'not_stamped',
          resolved_by: 'carla',
          note: 'no record at the PAC',
        }),
      ]);
    } finally {
      await quick.close();
    }
  }, 90_000);

  it('an operator can still decide after the workflow was terminated: the decision starts a new run that applies it', async () => {
    const account = await stampingAccount(stack);
    const res = await awaitingReconciliation(account);
    await stack.api.deps.temporal.workflow
      .getHandle(`stamp-${res.body.id}`)
      .terminate('test: an operator killed the run');

    const resolved = await runCli(stack.api.config, [
      'reconcile',
      'resolve',
      res.body.id,
      '--not-stamped',
      '--by',
      'dana',
      '--note',
      'run terminated by mistake',
    ]);
    expect({ code: resolved.code, stderr: resolved.stderr }).toEqual({ code: 0, stderr: '' });
    await waitFor(async () => ((await row(res.body.id)).status === 'stamp_failed' ? true : undefined), {
      what: 'stamp_failed',
    });
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume', 'refund']);
    const shown = JSON.parse(
      (await runCli(stack.api.config, ['reconcile', 'show', res.body.id, '--json'])).stdout,
    );
    expect(shown.resolutions).toEqual([
      expect.objectContaining({ resolution: 'not_stamped', resolved_by: 'dana' }),
    ]);
  }, 90_000);

  it('`cfdi reconcile auto` resolves the documents the PAC reports stamped', async () => {
    const account = await stampingAccount(stack);
    await injectFault('stamp', 'http_500_after_processing');
    const res = await post(account.testKey, invoiceBody(account.merchantId));
    expect(res.status).toBe(202);
    await waitFor(async () => ((await row(res.body.id)).needs_reconciliation ? true : undefined), {
      what: 'needsReconciliation',
    });
    const auto = await runCli(stack.api.config, ['reconcile', 'auto']);
    expect(auto.stdout).toContain(`${res.body.id}: stamped`);
    await waitFor(async () => ((await row(res.body.id)).status === 'stamped' ? true : undefined), {
      what: 'stamped',
    });
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);
  }, 90_000);
});

it('lets exactly as many concurrent stamps through as the balance covers (402 for the rest)', async () => {
  const account = await stampingAccount(stack);
  await stack.api.orm.em
    .fork()
    .execute(`update balances set balance_centavos = 500 where account_id = ? and livemode = false`, [
      account.accountId,
    ]);
  await stack.api.orm.em
    .fork()
    .execute(
      `insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos, note) values (?, ?, false, 'adjustment', -99500, 500, 'test: leave 5 timbres')`,
      [`txn_test${Date.now()}`, account.accountId],
    );
  const results = await Promise.all(
    Array.from({ length: 12 }, () => post(account.testKey, invoiceBody(account.merchantId))),
  );
  const statuses = results.map((r) => r.status).sort();
  expect(statuses.filter((s) => s === 201)).toHaveLength(5);
  expect(statuses.filter((s) => s === 402)).toHaveLength(7);
  expect(results.find((r) => r.status === 402)!.body.code).toBe('insufficient_credits');
  expect(await balance(account.accountId)).toBe(0);
}, 90_000);

describe('idempotency', () => {
  it('replays the stored response without charging again', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const first = await post(account.testKey, invoiceBody(account.merchantId), ik);
    const replay = await post(account.testKey, invoiceBody(account.merchantId), ik);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);
  }, 60_000);

  it('answers 409 to a concurrent duplicate and 422 to the same key with another body', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const [a, b] = await Promise.all([
      post(account.testKey, invoiceBody(account.merchantId), ik),
      post(account.testKey, invoiceBody(account.merchantId), ik),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('request_in_flight');
    const reuse = await post(account.testKey, invoiceBody(account.merchantId, { folio: 'other' }), ik);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);
  }, 60_000);

  it('requires the header, at most 255 characters', async () => {
    const account = await stampingAccount(stack);
    const missing = await stack.api.request('POST', '/v1/invoices', {
      key: account.testKey,
      body: invoiceBody(account.merchantId),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('/headers/idempotency-key');
    expect((await post(account.testKey, invoiceBody(account.merchantId), 'x'.repeat(256))).status).toBe(400);
  }, 60_000);
});

it('a stamp whose database write fails after the PAC stamped is handed to the workflow, which records it with retries, never refunded', async () => {
  const account = await stampingAccount(stack);
  const em = () => stack.api.orm.em.fork();
  // A real database refusal: a trigger rejects this merchant's first two `stamped` writes (the API's and the
  // workflow's first), counted by a sequence, which a refused transaction does not roll back.
  await em().execute('create table if not exists test_stamp_write_faults (merchant_id text primary key)');
  await em().execute('drop sequence if exists test_stamp_write_fault_count');
  await em().execute('create sequence test_stamp_write_fault_count');
  await em()
    .execute(`create or replace function test_stamp_write_fault() returns trigger language plpgsql as $$
    begin
      if new.status = 'stamped' and exists (select 1 from test_stamp_write_faults where merchant_id = new.merchant_id)
         and nextval('test_stamp_write_fault_count') <= 2 then
        raise exception 'injected: the database refuses the stamped row';
      end if;
      return new;
    end $$`);
  await em().execute('drop trigger if exists test_stamp_write_fault on documents');
  await em().execute(
    'create trigger test_stamp_write_fault before update on documents for each row execute function test_stamp_write_fault()',
  );
  try {
    await em().execute('insert into test_stamp_write_faults values (?)', [account.merchantId]);
    const res = await post(account.testKey, invoiceBody(account.merchantId));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'stamped', needsReconciliation: false });
    const stamped = await row(res.body.id);
    expect(stamped).toMatchObject({ status: 'stamped', uuid: res.body.uuid, reservation_state: 'confirmed' });
    expect((await ledger(account.accountId)).map((e) => e.type)).toEqual(['consume']);
    expect(await balance(account.accountId)).toBe(100000 - 100);
    // The API's attempt handed the PAC's answer to the workflow, which recorded it and sent nothing: its input
    // carries the answer and its history one local activity, the recording.
    const history = await stack.api.deps.temporal.workflow.getHandle(`stamp-${res.body.id}`).fetchHistory();
    const input = JSON.parse(
      Buffer.from(
        history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!,
      ).toString(),
    );
    expect(input.answered).toMatchObject({ outcome: 'stamped', uuid: res.body.uuid });
    expect(history.events!.filter((e) => e.markerRecordedEventAttributes).length).toBe(1);
    // The PAC holds one stamp for the document, the one recorded.
    const pac = new FinkokPac({ url: stack.sandbox.url, ...SANDBOX_CREDENTIALS });
    try {
      expect(await pac.lookupStamped(stamped.sealed_xml)).toMatchObject({
        outcome: 'stamped',
        uuid: res.body.uuid,
      });
    } finally {
      pac.close();
    }
  } finally {
    await em().execute('drop trigger if exists test_stamp_write_fault on documents');
    await em().execute('drop function if exists test_stamp_write_fault()');
    await em().execute('drop table if exists test_stamp_write_faults');
    await em().execute('drop sequence if exists test_stamp_write_fault_count');
  }
}, 60_000);
