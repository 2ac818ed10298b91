import { createApiKey, getStampingMerchant } from '@cfdi/services';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant } from './merchant-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => api.close());

const paths = (res: { body: { errors?: { path: string }[] } }) =>
  (res.body.errors ?? []).map((e) => e.path).sort();

describe('create and retrieve', () => {
  it('creates a merchant with every field present, defaults applied, and reads it back', async () => {
    const { testKey } = await api.newAccount();
    const res = await api.request('POST', '/v1/merchants', { key: testKey, body: EKU });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^mch_/),
      object: 'merchant',
      livemode: false,
      rfc: 'EKU9003173C9',
      legalName: 'ESCUELA KEMPER URGATE',
      regimenFiscal: '601',
      zip: '42501',
      serie: 'A',
      defaultClaveProdServ: null,
      defaultClaveUnidad: null,
      registroPatronal: null,
      borderRegionStimulus: false,
      autoEmail: false,
      emailCopyTo: [],
      globalInvoice: { enabled: false, periodicity: '04' },
      receiptGraceDays: 0,
      csd: null,
      logoUrl: null,
      brandColor: null,
      pdfNote: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect((await api.request('GET', `/v1/merchants/${res.body.id}`, { key: testKey })).body).toEqual(
      res.body,
    );
    const full = await newMerchant(api, testKey, {
      rfc: 'CACX7605101P8',
      legalName: 'XOCHILT CASAS CHAVEZ',
      regimenFiscal: '612',
      zip: '36257',
      serie: 'FAC-2026',
      defaultClaveProdServ: '81112100',
      defaultClaveUnidad: 'E48',
    });
    expect(full).toMatchObject({
      serie: 'FAC-2026',
      defaultClaveProdServ: '81112100',
      defaultClaveUnidad: 'E48',
      regimenFiscal: '612',
    });
  });

  it('accepts Ñ and & in the RFC', async () => {
    const { testKey } = await api.newAccount();
    expect((await newMerchant(api, testKey, { ...EKU, rfc: 'Ñ&A000229AB1' })).rfc).toBe('Ñ&A000229AB1');
    expect(
      (await newMerchant(api, testKey, { ...EKU, rfc: 'ÑA&B8001019Z9', regimenFiscal: '612' })).rfc,
    ).toBe('ÑA&B8001019Z9');
  });

  it('rejects each invalid field with its path, and unknown fields', async () => {
    const { testKey } = await api.newAccount();
    const bad = await api.request('POST', '/v1/merchants', {
      key: testKey,
      body: {
        rfc: 'eku9003173c9',
        legalName: '',
        regimenFiscal: '60',
        zip: '4250',
        serie: 'ABCDEFGHIJK',
        defaultClaveProdServ: '8111210',
        defaultClaveUnidad: 'TOOLONG',
        color: 'red',
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_error');
    expect(paths(bad)).toEqual([
      '/color',
      '/defaultClaveProdServ',
      '/defaultClaveUnidad',
      '/legalName',
      '/regimenFiscal',
      '/rfc',
      '/serie',
      '/zip',
    ]);
    expect(
      paths(
        await api.request('POST', '/v1/merchants', {
          key: testKey,
          body: { ...EKU, legalName: 'x'.repeat(301) },
        }),
      ),
    ).toEqual(['/legalName']);
    expect(
      paths(await api.request('POST', '/v1/merchants', { key: testKey, body: { legalName: 'X' } })),
    ).toEqual(['/regimenFiscal', '/rfc', '/zip']);
  });

  it('checks the date inside the RFC, the regime catalog and the regime against the person type', async () => {
    const { testKey } = await api.newAccount();
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ rfc: 'EKU900230AB1' }, '/rfc', /not a valid YYMMDD date/],
      [{ rfc: 'EKU901301AB1' }, '/rfc', /not a valid YYMMDD date/],
      [{ rfc: 'EKU90030AB1' }, '/rfc', /must match pattern/],
      [{ rfc: 'EKU000229AB1' }, '', /./],
      [{ rfc: 'EKU030229AB1' }, '/rfc', /not a valid YYMMDD date/],
      [{ regimenFiscal: '999' }, '/regimenFiscal', /not a key of the SAT fiscal-regime catalog/],
      [{ regimenFiscal: '605' }, '/regimenFiscal', /does not apply to a persona moral/],
      [
        { rfc: 'CACX7605101P8', regimenFiscal: '601' },
        '/regimenFiscal',
        /does not apply to a persona física/,
      ],
    ];
    for (const [override, path, message] of cases) {
      const res = await api.request('POST', '/v1/merchants', { key: testKey, body: { ...EKU, ...override } });
      if (!path) {
        expect(res.status).toBe(201);
        continue;
      }
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
    }
  });
});

describe('update and delete', () => {
  it('patches fields, clears nullable defaults, and refuses to change the RFC', async () => {
    const { testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey, {
      ...EKU,
      defaultClaveProdServ: '81112100',
      defaultClaveUnidad: 'E48',
    });
    const patched = await api.request('PATCH', `/v1/merchants/${m.id}`, {
      key: testKey,
      body: { legalName: 'NUEVO NOMBRE', serie: 'B', zip: '01000', defaultClaveUnidad: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...m,
      legalName: 'NUEVO NOMBRE',
      serie: 'B',
      zip: '01000',
      defaultClaveUnidad: null,
    });
    expect((await api.request('PATCH', `/v1/merchants/${m.id}`, { key: testKey, body: {} })).body).toEqual(
      patched.body,
    );

    const rfc = await api.request('PATCH', `/v1/merchants/${m.id}`, {
      key: testKey,
      body: { rfc: 'AAA010101AAA', legalName: 'X' },
    });
    expect(rfc.status).toBe(400);
    expect(rfc.body.errors).toEqual([{ path: '/rfc', message: expect.stringMatching(/cannot be changed/) }]);
    expect(
      paths(
        await api.request('PATCH', `/v1/merchants/${m.id}`, { key: testKey, body: { regimenFiscal: '612' } }),
      ),
    ).toEqual(['/regimenFiscal']);
    expect(
      paths(
        await api.request('PATCH', `/v1/merchants/${m.id}`, {
          key: testKey,
          body: { zip: 'abcde', nope: 1 },
        }),
      ),
    ).toEqual(['/nope', '/zip']);
    expect((await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey })).body).toEqual(patched.body);
  });

  it('soft-deletes: 404 afterwards on every route, gone from the list, no longer usable for stamping, row kept', async () => {
    const { accountId, testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey);
    const kept = await newMerchant(api, testKey, { ...EKU, serie: 'K' });
    expect(await api.request('DELETE', `/v1/merchants/${m.id}`, { key: testKey })).toMatchObject({
      status: 200,
      body: { id: m.id, object: 'merchant', deleted: true },
    });
    for (const [method, path, body] of merchantRoutes(m.id)) {
      expect({
        route: `${method} ${path}`,
        status: (await api.request(method, path, { key: testKey, body })).status,
      }).toEqual({ route: `${method} ${path}`, status: 404 });
    }
    const list = await api.request('GET', '/v1/merchants', { key: testKey });
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([kept.id]);
    const scope = { accountId, livemode: false, keyId: 'k', merchantIds: null };
    await expect(getStampingMerchant(api.orm.em.fork(), scope, m.id)).rejects.toMatchObject({ status: 404 });
    expect(await getStampingMerchant(api.orm.em.fork(), scope, kept.id)).toMatchObject({
      id: kept.id,
      rfc: 'EKU9003173C9',
      serie: 'K',
      hasCsd: false,
    });
    const rows: { deleted_at: string | null }[] = await api.orm.em
      .fork()
      .execute('select deleted_at from merchants where id = ?', [m.id]);
    expect(rows[0]!.deleted_at).not.toBeNull();
  });
});

describe('list', () => {
  it('pages newest first with has_more and starting_after, also after the cursor was deleted', async () => {
    const { testKey } = await api.newAccount();
    const other = await api.newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await newMerchant(api, testKey, { ...EKU, serie: `S${i}` })).id);
    const page1 = await api.request('GET', '/v1/merchants?limit=2', { key: testKey });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true });
    expect(page1.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
    await api.request('DELETE', `/v1/merchants/${ids[1]}`, { key: testKey });
    const page2 = await api.request('GET', `/v1/merchants?limit=2&starting_after=${ids[1]}`, {
      key: testKey,
    });
    expect(page2.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2, 4));
    const page3 = await api.request('GET', `/v1/merchants?limit=2&starting_after=${ids[3]}`, {
      key: testKey,
    });
    expect(page3.body).toMatchObject({ has_more: false, data: [{ id: ids[4] }] });
    const foreign = await api.request('GET', `/v1/merchants?starting_after=${ids[0]}`, {
      key: other.testKey,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].path).toBe('/starting_after');
    expect((await api.request('GET', '/v1/merchants?limit=101', { key: testKey })).status).toBe(400);
    expect((await api.request('GET', '/v1/merchants', { key: other.testKey })).body).toEqual({
      object: 'list',
      data: [],
      has_more: false,
    });
  });
});

/** Every merchant route with a body that passes the schema, so only the lookup decides the answer. */
function merchantRoutes(id: string): [string, string, unknown][] {
  const upload = { cer: 'AAAA', key: 'AAAA', password: 'x' };
  return [
    ['GET', `/v1/merchants/${id}`, undefined],
    ['PATCH', `/v1/merchants/${id}`, { legalName: 'X' }],
    ['DELETE', `/v1/merchants/${id}`, undefined],
    ['POST', `/v1/merchants/${id}/csd`, upload],
    ['PUT', `/v1/merchants/${id}/csd`, upload],
    ['GET', `/v1/merchants/${id}/csd`, undefined],
    ['PUT', `/v1/merchants/${id}/logo`, { logo: 'AAAA' }],
    ['DELETE', `/v1/merchants/${id}/logo`, undefined],
  ];
}

describe('isolation', () => {
  it('answers 404 on every merchant route from another account and from the other mode', async () => {
    const owner = await api.newAccount();
    const stranger = await api.newAccount();
    const m = await newMerchant(api, owner.testKey);
    for (const key of [stranger.testKey, stranger.liveKey, owner.liveKey]) {
      for (const [method, path, body] of merchantRoutes(m.id)) {
        const res = await api.request(method, path, { key, body });
        expect({ route: `${method} ${path}`, status: res.status, code: res.body.code }).toEqual({
          route: `${method} ${path}`,
          status: 404,
          code: 'not_found',
        });
      }
    }
    expect((await api.request('GET', '/v1/merchants', { key: owner.liveKey })).body.data).toEqual([]);
    expect((await api.request('GET', `/v1/merchants/${m.id}`, { key: owner.testKey })).status).toBe(200);
  });

  it('keeps live merchants in live mode', async () => {
    const { testKey, liveKey } = await api.newAccount();
    const live = await newMerchant(api, liveKey);
    expect(live.livemode).toBe(true);
    expect(
      (await api.request('GET', '/v1/merchants', { key: liveKey })).body.data.map(
        (m: { id: string }) => m.id,
      ),
    ).toEqual([live.id]);
    expect((await api.request('GET', '/v1/merchants', { key: testKey })).body.data).toEqual([]);
  });

  it('limits a restricted key to its merchants: 403 on the others, 404 on missing ones, no creation', async () => {
    const { accountId, testKey } = await api.newAccount();
    const mine = await newMerchant(api, testKey);
    const theirs = await newMerchant(api, testKey, { ...EKU, serie: 'B' });
    const { secret } = await createApiKey(api.orm.em.fork(), {
      accountId,
      livemode: false,
      merchantIds: [mine.id],
    });
    expect(
      (await api.request('GET', '/v1/merchants', { key: secret })).body.data.map((m: { id: string }) => m.id),
    ).toEqual([mine.id]);
    expect((await api.request('GET', `/v1/merchants/${mine.id}`, { key: secret })).status).toBe(200);
    expect(
      (await api.request('PATCH', `/v1/merchants/${mine.id}`, { key: secret, body: { serie: 'R' } })).body
        .serie,
    ).toBe('R');
    for (const [method, path, body] of merchantRoutes(theirs.id)) {
      const res = await api.request(method, path, { key: secret, body });
      expect({ route: `${method} ${path}`, status: res.status, code: res.body.code }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        code: 'forbidden',
      });
    }
    expect((await api.request('GET', '/v1/merchants/mch_doesnotexist', { key: secret })).status).toBe(404);
    expect(await api.request('POST', '/v1/merchants', { key: secret, body: EKU })).toMatchObject({
      status: 403,
      body: { code: 'forbidden' },
    });
    expect((await api.request('GET', `/v1/merchants/${theirs.id}`, { key: testKey })).status).toBe(200);
  });
});
