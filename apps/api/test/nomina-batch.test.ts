import { getBalanceCentavos } from '@cfdi/services';
import { nominaBody, withEmployee } from './nomina-fixtures';
import { idempotencyKey, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const receipt = (merchantId: string, i: number) => {
  const { merchantId: _m, ...body } = withEmployee(merchantId, { numEmpleado: `E-${i}` });
  return body;
};

describe('POST /v1/nominas/batch', () => {
  it('stamps a 200-employee payroll run: every receipt accounted for, one that breaks a rule reported in its place without stopping the others', async () => {
    const account = await stampingAccount(stack);
    const nominas = Array.from({ length: 200 }, (_, i) => receipt(account.merchantId, i));
    const { merchantId: _m, ...invalid } = nominaBody(account.merchantId, {
      otrosPagos: [{ tipo: '002', clave: 'SUB', concepto: 'Subsidio', importe: 30, subsidioCausado: 20 }],
    });
    nominas[7] = invalid;
    const ik = idempotencyKey();
    const body = { merchantId: account.merchantId, nominas };
    const res = await stack.api.request('POST', '/v1/nominas/batch', {
      key: account.testKey,
      body,
      headers: { 'idempotency-key': ik },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'nomina_batch',
      livemode: false,
      merchantId: account.merchantId,
    });
    expect(res.body.data.map((d: { index: number }) => d.index)).toEqual(nominas.map((_, i) => i));
    const failed = res.body.data.filter((d: { status: number }) => d.status !== 201 && d.status !== 202);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ index: 7, status: 400, id: null, nomina: null });
    expect(failed[0].error.errors).toContainEqual({
      path: '/nominas/7/otrosPagos/0/subsidioCausado',
      message: expect.stringContaining('NOM220'),
    });
    expect(res.body.summary).toEqual({
      total: 200,
      stamped: res.body.summary.stamped,
      stamping: res.body.summary.stamping,
      failed: 1,
    });

    // Every accepted receipt is its own document with its own timbre; those still stamping finish on their own.
    const ids: string[] = res.body.data
      .filter((d: { id: string | null }) => d.id)
      .map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(199);
    const em = stack.api.orm.em.fork();
    const deadline = Date.now() + 120_000;
    let statuses: { status: string; n: string }[] = [];
    while (Date.now() < deadline) {
      statuses = await em.execute(
        `select status, count(*) as n from documents where account_id = ? and type = 'nomina' group by status`,
        [account.accountId],
      );
      if (statuses.length === 1 && statuses[0]!.status === 'stamped') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(statuses).toEqual([{ status: 'stamped', n: '199' }]);
    const uuids: { n: string }[] = await em.execute(
      `select count(distinct uuid) as n from documents where account_id = ? and type = 'nomina'`,
      [account.accountId],
    );
    expect(uuids[0]!.n).toBe('199');
    expect(await getBalanceCentavos(em, { accountId: account.accountId, livemode: false })).toBe(
      100000 - 199 * 100,
    );

    // The same key and body replays the answer and stamps nothing more.
    const replay = await stack.api.request('POST', '/v1/nominas/batch', {
      key: account.testKey,
      body,
      headers: { 'idempotency-key': ik },
    });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.data.map((d: { id: string | null }) => d.id)).toEqual(
      res.body.data.map((d: { id: string | null }) => d.id),
    );
    expect(await getBalanceCentavos(em, { accountId: account.accountId, livemode: false })).toBe(
      100000 - 199 * 100,
    );
  }, 300_000);

  it('a batch retried after its first attempt died re-uses the documents already created (one per receipt, never two)', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const nominas = Array.from({ length: 3 }, (_, i) => receipt(account.merchantId, i));
    const body = { merchantId: account.merchantId, nominas };
    const first = await stack.api.request('POST', '/v1/nominas/batch', {
      key: account.testKey,
      body,
      headers: { 'idempotency-key': ik },
    });
    expect(first.status).toBe(200);
    // Simulate a crash after the receipts were answered but before the batch's answer was stored.
    const em = stack.api.orm.em.fork();
    await em.execute(
      `update idempotency_keys set state = 'in_flight', response_status = null, response_body = null, locked_until = now() - interval '1 second'
      where account_id = ? and key = ?`,
      [account.accountId, ik],
    );
    const retry = await stack.api.request('POST', '/v1/nominas/batch', {
      key: account.testKey,
      body,
      headers: { 'idempotency-key': ik },
    });
    expect(retry.status).toBe(200);
    expect(retry.body.data.map((d: { id: string }) => d.id)).toEqual(
      first.body.data.map((d: { id: string }) => d.id),
    );
    const docs: { n: string }[] = await em.execute(
      `select count(*) as n from documents where account_id = ? and type = 'nomina'`,
      [account.accountId],
    );
    expect(docs[0]!.n).toBe('3');
    expect(await getBalanceCentavos(em, { accountId: account.accountId, livemode: false })).toBe(
      100000 - 300,
    );
  }, 120_000);

  it('refuses more than 1,000 receipts and a body without receipts with a 400 on /nominas', async () => {
    const account = await stampingAccount(stack);
    const one = receipt(account.merchantId, 0);
    for (const nominas of [[], Array.from({ length: 1001 }, () => one)]) {
      const res = await stack.api.request('POST', '/v1/nominas/batch', {
        key: account.testKey,
        body: { merchantId: account.merchantId, nominas },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain('/nominas');
    }
  }, 60_000);
});
