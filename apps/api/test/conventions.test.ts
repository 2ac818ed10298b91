import { startApi, type ApiHarness } from './harness';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

describe('authentication', () => {
  it('answers 401 problem+json without a key, with a malformed header, an unknown key and a revoked key', async () => {
    const { testKey } = await api.newAccount();
    const revoked = await api.newAccount();
    await api.orm.em
      .fork()
      .execute('update api_keys set revoked_at = now() where account_id = ?', [revoked.accountId]);
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: `Bearer ${testKey}x` },
      { authorization: 'Bearer sk_test_doesnotexistdoesnotexist00' },
      { authorization: `Bearer ${revoked.testKey}` },
      { authorization: `Bearer ${testKey.replace('sk_test_', 'sk_live_')}` },
    ];
    for (const headers of cases) {
      const res = await api.request('GET', '/v1/balance', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        status: 401,
        code: 'unauthorized',
        title: 'Unauthorized',
        type: `${api.config.api.docsUrl}/errors/unauthorized`,
      });
      expect(typeof res.body.detail).toBe('string');
    }
  });

  it('serves /health and /ready without a key', async () => {
    expect((await api.request('GET', '/health')).body).toEqual({ status: 'ok' });
    expect(await api.request('GET', '/ready')).toMatchObject({
      status: 200,
      body: { status: 'ready', db: true, redis: true },
    });
  });
});

describe('errors', () => {
  it('answers unknown routes with a 404 problem', async () => {
    const res = await api.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('not_found');
  });

  it('lists one error per invalid field path on 400', async () => {
    const { testKey } = await api.newAccount();
    const res = await api.request('GET', '/v1/billing/transactions?limit=0&type=gift', { key: testKey });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/limit', '/type']);

    const body = await api.request('POST', '/v1/billing/checkout_sessions', {
      key: testKey,
      body: { amountCentavos: '500', extra: 1 },
    });
    expect(body.status).toBe(400);
    expect(body.body.errors).toEqual(
      expect.arrayContaining([
        { path: '/amountCentavos', message: expect.any(String) },
        { path: '/extra', message: 'is not an accepted field' },
      ]),
    );
  });

  it('rejects bodies over 1 MB with 413', async () => {
    const { testKey } = await api.newAccount();
    const res = await api.request('POST', '/v1/billing/checkout_sessions', {
      key: testKey,
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it("lists a missing or too long Idempotency-Key beside the body's invalid fields, in one 400", async () => {
    const { testKey } = await api.newAccount();
    for (const headers of [{}, { 'idempotency-key': 'k'.repeat(256) }] as Record<string, string>[]) {
      const res = await api.request('POST', '/v1/invoices', { key: testKey, headers, body: { bogus: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { path: '/bogus', message: 'is not an accepted field' },
          {
            path: '/headers/idempotency-key',
            message: expect.stringMatching(/Idempotency-Key header (is required|must have at most 255)/),
          },
        ]),
      );
    }
    const fine = await api.request('POST', '/v1/invoices', {
      key: testKey,
      headers: { 'idempotency-key': 'k1' },
      body: { bogus: 1 },
    });
    expect(fine.body.errors.map((e: { path: string }) => e.path)).not.toContain('/headers/idempotency-key');
  });

  it('names every accepted value when a field takes one of a few literals (body and query)', async () => {
    const { testKey } = await api.newAccount();
    const note = await api.request('POST', '/v1/credit_notes', {
      key: testKey,
      headers: { 'idempotency-key': 'k1' },
      body: {
        merchantId: 'mch_x',
        relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
        tipoRelacion: '07',
        formaPago: '03',
        items: [],
      },
    });
    expect(note.status).toBe(400);
    expect(note.body.errors).toContainEqual({ path: '/tipoRelacion', message: 'must be one of: 01, 03' });
    const list = await api.request('GET', '/v1/invoices?kind=bogus', { key: testKey });
    expect(list.body.errors).toEqual([
      { path: '/kind', message: 'must be one of: nominal, global, credit_note' },
    ]);
  });

  it('takes an empty body with Content-Type: application/json as no body; malformed or poisoned JSON is still a 400', async () => {
    const { testKey } = await api.newAccount();
    const json = { 'content-type': 'application/json' };
    const created = await api.request('POST', '/v1/merchants', {
      key: testKey,
      body: { rfc: 'EKU9003173C9', legalName: 'ESCUELA KEMPER URGATE', regimenFiscal: '601', zip: '42501' },
    });
    const deleted = await api.request('DELETE', `/v1/merchants/${created.body.id}`, {
      key: testKey,
      headers: json,
      rawBody: '',
    });
    expect(deleted).toMatchObject({ status: 200, body: { id: created.body.id, deleted: true } });
    const noBody = await api.request('POST', '/v1/merchants', { key: testKey, headers: json, rawBody: '' });
    expect(noBody).toMatchObject({ status: 400, body: { code: 'validation_error' } });
    for (const rawBody of ['{"legalName":', '{"__proto__":{"polluted":true}}']) {
      const bad = await api.request('POST', '/v1/merchants', { key: testKey, headers: json, rawBody });
      expect({ rawBody, status: bad.status, code: bad.body.code }).toEqual({
        rawBody,
        status: 400,
        code: 'validation_error',
      });
    }
  });

  it('says billing is unavailable when Stripe is not configured', async () => {
    const { testKey } = await api.newAccount();
    const res = await api.request('POST', '/v1/billing/checkout_sessions', {
      key: testKey,
      body: { amountCentavos: 10000 },
    });
    expect(res).toMatchObject({ status: 503, body: { code: 'billing_unavailable' } });
  });
});

describe('rate limiting', () => {
  it('counts requests per account and answers 429 with Retry-After past the limit', async () => {
    const { testKey, liveKey } = await api.newAccount({ rateLimitPerMinute: 3 });
    // The quota counts per clock minute: the four requests must fall in one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const first = await api.request('GET', '/v1/balance', { key: testKey });
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    await api.request('GET', '/v1/balance', { key: liveKey }); // both modes share the account's quota
    await api.request('GET', '/v1/balance', { key: testKey });
    const limited = await api.request('GET', '/v1/balance', { key: testKey });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

describe('readiness', () => {
  it('reports degraded with 503 when Redis or PostgreSQL is unreachable', async () => {
    const noRedis = await startApi({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      expect(await noRedis.request('GET', '/ready')).toMatchObject({
        status: 503,
        body: { status: 'degraded', db: true, redis: false },
      });
      // Only the rate limit needs Redis: without it requests are served, unlimited, instead of failing with 500.
      const { testKey } = await noRedis.newAccount({ rateLimitPerMinute: 1 });
      for (let i = 0; i < 3; i++) {
        const balance = await noRedis.request('GET', '/v1/balance', { key: testKey });
        expect({ status: balance.status, limit: balance.headers.get('x-ratelimit-limit') }).toEqual({
          status: 200,
          limit: '1',
        });
      }
    } finally {
      await noRedis.close();
    }
    const noDb = await startApi({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/cfdi_test' });
    try {
      expect(await noDb.request('GET', '/ready')).toMatchObject({
        status: 503,
        body: { status: 'degraded', db: false, redis: true },
      });
    } finally {
      await noDb.close();
    }
  });
});

describe('openapi', () => {
  it('publishes the document generated from the route schemas', async () => {
    const res = await api.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.info.version).toBe('0.0.1');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/balance', '/v1/billing/transactions']),
    );
  });
});

describe('schema', () => {
  it('indexes every foreign key by its column, so deleting or archiving a referenced row never scans the table', async () => {
    const unindexed: { fk: string }[] = await api.orm.em.fork().execute(
      `select c.conrelid::regclass || '.' || a.attname as fk
         from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
        where c.contype = 'f' and c.connamespace = current_schema()::regnamespace
          and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
        order by 1`,
    );
    expect(unindexed.map((row) => row.fk)).toEqual([]);
  });
});
