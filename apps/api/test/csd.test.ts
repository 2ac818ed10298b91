import {
  createSign,
  createVerify,
  randomBytes,
  randomInt,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { loadConfig } from '@cfdi/config';
import { generateCertificate, taxpayerSubject, TEST_CA_ISSUER } from '@cfdi/pac-sandbox';
import { createPacClients, loadSigningCsd, type Scope } from '@cfdi/services';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant, PINNED_NOW, SAT_PASSWORD, satFile, satUpload } from './merchant-fixtures';

const DAY = 86_400_000;
const clock = { now: PINNED_NOW };
let sandbox: RunningPacSandbox;
let api: ApiHarness;
beforeAll(async () => {
  sandbox = await startPacSandbox({ now: () => PINNED_NOW });
  api = await startApi({ PAC_SANDBOX_URL: sandbox.url }, { now: () => clock.now });
});
afterAll(async () => {
  await api?.close();
  await sandbox?.close();
});
afterEach(() => {
  clock.now = PINNED_NOW;
});

const CACX = { rfc: 'CACX7605101P8', legalName: 'XOCHILT CASAS CHAVEZ', regimenFiscal: '612', zip: '36257' };
const scopeOf = (accountId: string): Scope => ({
  accountId,
  livemode: false,
  keyId: 'key_test',
  merchantIds: null,
});

/** A CSD with SAT's shape but chosen dates (the SAT files' validity is fixed), its key encrypted like SAT's. */
function forgedUpload(
  rfcUid: string,
  validity: { notBefore: Date; notAfter: Date },
  password = 'forged-pass',
) {
  const { certificateDer, privateKey } = generateCertificate({
    noCertificado: `3000100000050000${String(randomInt(0, 1e4)).padStart(4, '0')}`,
    subject: taxpayerSubject(rfcUid, 'FORGED TEST ISSUER', 'Sucursal 1'),
    issuer: TEST_CA_ISSUER,
    ...validity,
    profile: 'csd',
  });
  const key = privateKey.export({
    format: 'der',
    type: 'pkcs8',
    cipher: 'des-ede3-cbc',
    passphrase: password,
  });
  return { cer: certificateDer.toString('base64'), key: key.toString('base64'), password };
}

async function storedCsdRows(merchantId: string): Promise<Record<string, unknown>[]> {
  return api.orm.em.fork().execute('select * from merchant_csds where merchant_id = ?', [merchantId]);
}

function signsLike(privateKey: KeyObject, certificateDer: Buffer): boolean {
  const signature = createSign('RSA-SHA256').update('cadena').sign(privateKey);
  return createVerify('RSA-SHA256')
    .update('cadena')
    .verify(new X509Certificate(certificateDer).publicKey, signature);
}

describe('with the sandbox PAC', () => {
  it('accepts a valid CSD, reports serial, validity and registration, and stores the key material only encrypted', async () => {
    const { accountId, testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey);
    const res = await api.request('POST', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: satUpload('EKU9003173C9-csd'),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'csd',
      serialNumber: '30001000000500003416',
      rfc: 'EKU9003173C9',
      validFrom: '2023-05-18T11:43:51.000Z',
      validTo: '2027-05-18T11:43:51.000Z',
      status: 'active',
      registeredWithPac: true,
      updatedAt: expect.any(String),
    });
    expect((await api.request('GET', `/v1/merchants/${m.id}/csd`, { key: testKey })).body).toEqual(res.body);
    expect((await api.request('GET', `/v1/merchants/${m.id}`, { key: testKey })).body.csd).toEqual(res.body);

    const pac = createPacClients(api.config);
    try {
      expect(await pac.forMode(false).getCsd('EKU9003173C9')).toMatchObject({
        outcome: 'found',
        status: 'A',
      });
    } finally {
      pac.close();
    }

    const [row] = await storedCsdRows(m.id);
    const keyDer = satFile('EKU9003173C9-csd.key');
    const stored = Buffer.concat(
      Object.values(row!).map((v) => (Buffer.isBuffer(v) ? v : Buffer.from(String(v)))),
    );
    for (const secret of [
      keyDer,
      Buffer.from(keyDer.toString('base64')),
      Buffer.from(keyDer.toString('hex')),
      Buffer.from(SAT_PASSWORD),
      keyDer.subarray(100, 132),
    ]) {
      expect(stored.includes(secret)).toBe(false);
    }
    expect(row).toMatchObject({
      private_key_encrypted: expect.stringMatching(/^v1:k1:/),
      password_encrypted: expect.stringMatching(/^v1:k1:/),
    });
    expect(row!.certificate_der).toEqual(satFile('EKU9003173C9-csd.cer'));

    const signing = await loadSigningCsd(api.orm.em.fork(), api.config.masterKey, scopeOf(accountId), m.id);
    expect(signing).toMatchObject({
      noCertificado: '30001000000500003416',
      validTo: new Date('2027-05-18T11:43:51.000Z'),
    });
    expect(signsLike(signing.privateKey, signing.certificateDer)).toBe(true);

    const again = await api.request('POST', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: satUpload('EKU9003173C9-csd'),
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'csd_already_exists' } });
  });

  it('registers the same RFC for a second account (the PAC already knows it: add, then edit)', async () => {
    for (let i = 0; i < 2; i++) {
      const { testKey } = await api.newAccount();
      const m = await newMerchant(api, testKey);
      expect(
        (
          await api.request('POST', `/v1/merchants/${m.id}/csd`, {
            key: testKey,
            body: satUpload('EKU9003173C9-csd'),
          })
        ).status,
      ).toBe(201);
    }
  });

  it('answers each problem with its subcode and field, echoes no secret, and stores nothing', async () => {
    const { testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey);
    const good = satUpload('EKU9003173C9-csd');
    const unencryptedKey = generateCertificate({
      noCertificado: '30001000000500009999',
      subject: taxpayerSubject('EKU9003173C9 / VADA800927DJ3', 'X', 'S'),
      issuer: TEST_CA_ISSUER,
      notBefore: new Date(PINNED_NOW.getTime() - DAY),
      notAfter: new Date(PINNED_NOW.getTime() + DAY),
      profile: 'csd',
    })
      .privateKey.export({ format: 'der', type: 'pkcs8' })
      .toString('base64');
    const cases: [string, Record<string, string>, string, string][] = [
      ['non-base64 certificate', { ...good, cer: 'this is not base64!' }, 'csd_invalid_certificate', '/cer'],
      ['non-base64 key', { ...good, key: '%%%%' }, 'csd_invalid_key', '/key'],
      [
        'garbage certificate',
        { ...good, cer: randomBytes(600).toString('base64') },
        'csd_invalid_certificate',
        '/cer',
      ],
      ['garbage key', { ...good, key: randomBytes(600).toString('base64') }, 'csd_invalid_key', '/key'],
      ['certificate uploaded as key', { ...good, key: good.cer }, 'csd_invalid_key', '/key'],
      ['unencrypted key', { ...good, key: unencryptedKey }, 'csd_invalid_key', '/key'],
      ['wrong password', { ...good, password: 'not-the-password-123' }, 'csd_wrong_password', '/password'],
      ['key of the FIEL', { ...good, key: satUpload('EKU9003173C9-fiel').key }, 'csd_key_mismatch', '/key'],
      [
        'key of another taxpayer',
        { ...good, key: satUpload('CACX7605101P8-csd').key },
        'csd_key_mismatch',
        '/key',
      ],
      ['FIEL pair', satUpload('EKU9003173C9-fiel'), 'csd_is_fiel', '/cer'],
      ['CSD of another RFC', satUpload('CACX7605101P8-csd'), 'csd_rfc_mismatch', '/cer'],
      [
        'forged, expired yesterday',
        forgedUpload('EKU9003173C9 / VADA800927DJ3', {
          notBefore: new Date('2022-01-01'),
          notAfter: new Date(PINNED_NOW.getTime() - DAY),
        }),
        'csd_expired',
        '/cer',
      ],
      [
        'forged, valid from tomorrow',
        forgedUpload('EKU9003173C9 / VADA800927DJ3', {
          notBefore: new Date(PINNED_NOW.getTime() + DAY),
          notAfter: new Date('2030-01-01'),
        }),
        'csd_not_yet_valid',
        '/cer',
      ],
    ];
    for (const [i, [name, body, subcode, path]] of cases.entries()) {
      // POST and PUT share the checks; alternate them rather than doubling the requests.
      for (const method of [i % 2 ? 'PUT' : 'POST']) {
        const res = await api.request(method, `/v1/merchants/${m.id}/csd`, { key: testKey, body });
        expect({
          name,
          method,
          status: res.status,
          code: res.body.code,
          subcode: res.body.subcode,
          path: res.body.errors?.[0]?.path,
        }).toEqual({ name, method, status: 400, code: 'validation_error', subcode, path });
        expect(JSON.stringify(res.body)).not.toContain(body.password);
      }
    }
    const empty = await api.request('POST', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: { cer: '', key: '', password: '' },
    });
    expect(empty.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/cer',
      '/key',
      '/password',
    ]);

    const xia = await newMerchant(api, testKey, {
      ...EKU,
      rfc: 'XIA190128J61',
      legalName: 'XENON INDUSTRIAL ARTICLES',
    });
    const expired = await api.request('POST', `/v1/merchants/${xia.id}/csd`, {
      key: testKey,
      body: satUpload('XIA190128J61-csd-expired'),
    });
    expect(expired).toMatchObject({ status: 400, body: { subcode: 'csd_expired' } });

    for (const id of [m.id, xia.id]) {
      expect((await api.request('GET', `/v1/merchants/${id}/csd`, { key: testKey })).status).toBe(404);
      expect(await storedCsdRows(id)).toEqual([]);
    }
  });

  it('PUT stores, then replaces in one step; a refused replacement keeps the old CSD; status follows validTo', async () => {
    const { accountId, testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey, CACX);
    const first = await api.request('PUT', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: satUpload('CACX7605101P8-csd'),
    });
    expect(first).toMatchObject({
      status: 200,
      body: { serialNumber: '30001000000500003316', rfc: 'CACX7605101P8' },
    });

    const renewed = forgedUpload('CACX7605101P8', {
      notBefore: new Date(PINNED_NOW.getTime() - DAY),
      notAfter: new Date(PINNED_NOW.getTime() + DAY),
    });
    const second = await api.request('PUT', `/v1/merchants/${m.id}/csd`, { key: testKey, body: renewed });
    expect(second.status).toBe(200);
    expect(second.body.serialNumber).not.toBe('30001000000500003316');
    expect(second.body.validTo).toBe(new Date(PINNED_NOW.getTime() + DAY).toISOString());
    expect(await storedCsdRows(m.id)).toHaveLength(1);

    const refused = await api.request('PUT', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: { ...satUpload('CACX7605101P8-csd'), password: 'nope-nope' },
    });
    expect(refused.status).toBe(400);
    expect((await api.request('GET', `/v1/merchants/${m.id}/csd`, { key: testKey })).body).toEqual(
      second.body,
    );
    const signing = await loadSigningCsd(api.orm.em.fork(), api.config.masterKey, scopeOf(accountId), m.id);
    expect(signing.certificateDer.toString('base64')).toBe(renewed.cer);
    expect(signsLike(signing.privateKey, signing.certificateDer)).toBe(true);

    clock.now = new Date(PINNED_NOW.getTime() + 2 * DAY);
    expect((await api.request('GET', `/v1/merchants/${m.id}/csd`, { key: testKey })).body.status).toBe(
      'expired',
    );
  });

  it('cannot load the signing CSD of a deleted merchant unless asked for its history', async () => {
    const { accountId, testKey } = await api.newAccount();
    const m = await newMerchant(api, testKey);
    await api.request('POST', `/v1/merchants/${m.id}/csd`, {
      key: testKey,
      body: satUpload('EKU9003173C9-csd'),
    });
    await api.request('DELETE', `/v1/merchants/${m.id}`, { key: testKey });
    const em = api.orm.em.fork();
    await expect(loadSigningCsd(em, api.config.masterKey, scopeOf(accountId), m.id)).rejects.toMatchObject({
      status: 404,
    });
    expect(
      (await loadSigningCsd(em, api.config.masterKey, scopeOf(accountId), m.id, { includeDeleted: true }))
        .noCertificado,
    ).toBe('30001000000500003416');
  });
});

describe('when the PAC or the master key is missing', () => {
  it('answers 503 pac_unavailable and stores nothing when the sandbox PAC is down, keeping an existing CSD', async () => {
    const down = await startApi({ PAC_SANDBOX_URL: 'http://127.0.0.1:1' }, { now: () => PINNED_NOW });
    try {
      const { testKey } = await api.newAccount();
      const fresh = await newMerchant(api, testKey);
      const res = await down.request('POST', `/v1/merchants/${fresh.id}/csd`, {
        key: testKey,
        body: satUpload('EKU9003173C9-csd'),
      });
      expect(res).toMatchObject({ status: 503, body: { code: 'pac_unavailable' } });
      expect(await storedCsdRows(fresh.id)).toEqual([]);

      const withCsd = await newMerchant(api, testKey, CACX);
      const before = await api.request('PUT', `/v1/merchants/${withCsd.id}/csd`, {
        key: testKey,
        body: satUpload('CACX7605101P8-csd'),
      });
      const renewed = forgedUpload('CACX7605101P8', {
        notBefore: new Date(PINNED_NOW.getTime() - DAY),
        notAfter: new Date('2030-01-01'),
      });
      expect(
        (await down.request('PUT', `/v1/merchants/${withCsd.id}/csd`, { key: testKey, body: renewed }))
          .status,
      ).toBe(503);
      expect((await api.request('GET', `/v1/merchants/${withCsd.id}/csd`, { key: testKey })).body).toEqual(
        before.body,
      );
    } finally {
      await down.close();
    }
  });

  it('answers 503 in live mode while no live PAC is configured', async () => {
    const { liveKey } = await api.newAccount();
    const m = await newMerchant(api, liveKey);
    expect(
      await api.request('POST', `/v1/merchants/${m.id}/csd`, {
        key: liveKey,
        body: satUpload('EKU9003173C9-csd'),
      }),
    ).toMatchObject({ status: 503, body: { code: 'pac_unavailable' } });
    expect(await storedCsdRows(m.id)).toEqual([]);
  });

  it('refuses CSD uploads without a master key, and refuses to start live without one', async () => {
    const keyless = await startApi(
      { PAC_SANDBOX_URL: sandbox.url, MASTER_KEY: '' },
      { now: () => PINNED_NOW },
    );
    try {
      const { testKey } = await keyless.newAccount();
      const m = await newMerchant(keyless, testKey);
      expect(
        await keyless.request('POST', `/v1/merchants/${m.id}/csd`, {
          key: testKey,
          body: satUpload('EKU9003173C9-csd'),
        }),
      ).toMatchObject({ status: 503, body: { code: 'encryption_unavailable' } });
    } finally {
      await keyless.close();
    }
    // server.ts starts with loadConfig(), so these configurations never get to listen.
    for (const env of [{ LIVE_ENABLED: 'true' }, { NODE_ENV: 'production' }]) {
      expect(() => loadConfig({ DATABASE_URL: api.config.databaseUrl, ...env })).toThrow(
        'MASTER_KEY is required when LIVE_ENABLED=true',
      );
    }
  });
});
