import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal } from '@cfdi/cfdi';
import {
  idempotencyKey,
  invoiceBody,
  RECEIVER,
  stampingAccount,
  startStack,
  type StackHarness,
} from './stack';
import { keyForAnotherMerchant } from './restricted-key';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, path: string, body: unknown) =>
  stack.api.request('POST', path, { key, headers: { 'idempotency-key': idempotencyKey() }, body });
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id]))[0] as {
      stamped_xml: string;
    }
  ).stamped_xml;

/** The stamped XML validates against the SAT XSD and our cadena equals the SAT XSLT's. */
function assertSatConformant(xml: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-'));
  const file = path.join(dir, 'doc.xml');
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

it('stamps a PPD invoice with formaPago 99 and reports its outstanding balance', async () => {
  const account = await stampingAccount(stack);
  const res = await post(
    account.testKey,
    '/v1/invoices',
    invoiceBody(account.merchantId, { metodoPago: 'PPD', formaPago: '99' }),
  );
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ metodoPago: 'PPD', formaPago: '99', saldoPendiente: res.body.total });
  const xml = await stampedXml(res.body.id);
  expect(xml).toContain('MetodoPago="PPD"');
  assertSatConformant(xml);
}, 60_000);

it('stamps a global invoice to PUBLICO EN GENERAL with InformacionGlobal', async () => {
  const account = await stampingAccount(stack);
  const body = invoiceBody(account.merchantId, {
    usoCfdi: 'S01',
    receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL', zip: '42501', regimenFiscal: '616' },
    informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 },
    items: [
      {
        productCode: '01010101',
        unitCode: 'ACT',
        description: 'Venta',
        quantity: 1,
        unitPrice: 1160,
        noIdentificacion: 'T-0001',
      },
    ],
  });
  const res = await post(account.testKey, '/v1/invoices', body);
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    kind: 'global',
    receiver: { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL' },
    total: 1160,
  });
  const xml = await stampedXml(res.body.id);
  expect(xml).toMatch(/<cfdi:InformacionGlobal[^>]*Periodicidad="04"/);
  assertSatConformant(xml);
  // informacionGlobal is refused on a nominal invoice, with the field path
  const wrong = await post(
    account.testKey,
    '/v1/invoices',
    invoiceBody(account.merchantId, { informacionGlobal: { periodicidad: '04', meses: '11', anio: 2026 } }),
  );
  expect(wrong.status).toBe(400);
  expect(wrong.body.errors.map((e: { path: string }) => e.path)).toContain('/informacionGlobal');
}, 60_000);

describe('credit notes', () => {
  it('credits an invoice of the service (receiver copied, TipoRelacion 01, G02) without touching the invoice', async () => {
    const account = await stampingAccount(stack);
    const invoice = (await post(account.testKey, '/v1/invoices', invoiceBody(account.merchantId))).body;
    const res = await post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      relatedInvoiceId: invoice.id,
      formaPago: '03',
      items: [
        {
          productCode: '84111506',
          unitCode: 'ACT',
          description: 'Bonificación 10%',
          quantity: 1,
          unitPrice: 2320,
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: 'credit_note',
      tipoRelacion: '01',
      relatedUuid: invoice.uuid,
      relatedInvoiceId: invoice.id,
      usoCfdi: 'G02',
      receiver: RECEIVER,
      status: 'stamped',
    });
    const xml = await stampedXml(res.body.id);
    expect(xml).toContain('TipoDeComprobante="E"');
    expect(xml).toContain(`UUID="${invoice.uuid}"`);
    assertSatConformant(xml);
    expect(
      (await stack.api.request('GET', `/v1/invoices/${invoice.id}`, { key: account.testKey })).body.status,
    ).toBe('stamped');
    const listed = await stack.api.request('GET', '/v1/invoices?kind=credit_note', { key: account.testKey });
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([res.body.id]);
  }, 60_000);

  it('credits a CFDI stamped elsewhere by UUID with an explicit receiver, TipoRelacion 03', async () => {
    const account = await stampingAccount(stack);
    const res = await post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      relatedUuid: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      tipoRelacion: '03',
      formaPago: '15',
      receiver: RECEIVER,
      items: [
        {
          productCode: '43211503',
          unitCode: 'H87',
          description: 'Devolución de equipo',
          quantity: 1,
          unitPrice: 11600,
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      tipoRelacion: '03',
      relatedUuid: '0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D',
      relatedInvoiceId: null,
    });
  }, 60_000);

  it('refuses a credit note without a related reference, without receiver for a UUID, for a missing invoice or another merchant', async () => {
    const account = await stampingAccount(stack);
    const items = [
      { productCode: '84111506', unitCode: 'ACT', description: 'Bonificación', quantity: 1, unitPrice: 100 },
    ];
    const none = await post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      formaPago: '03',
      items,
    });
    expect(none.status).toBe(400);
    const noReceiver = await post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      relatedUuid: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      formaPago: '03',
      items,
    });
    expect(noReceiver.status).toBe(400);
    expect(noReceiver.body.errors.map((e: { path: string }) => e.path)).toContain('/receiver');
    const missing = await post(account.testKey, '/v1/credit_notes', {
      merchantId: account.merchantId,
      relatedInvoiceId: 'inv_missing',
      formaPago: '03',
      items,
    });
    expect(missing.status).toBe(404);
    const other = await stampingAccount(stack);
    const foreign = (await post(other.testKey, '/v1/invoices', invoiceBody(other.merchantId))).body;
    expect(
      (
        await post(account.testKey, '/v1/credit_notes', {
          merchantId: account.merchantId,
          relatedInvoiceId: foreign.id,
          formaPago: '03',
          items,
        })
      ).status,
    ).toBe(404);
    // nothing was charged for the refusals
    const ledger = await stack.api.request('GET', '/v1/billing/transactions?type=consume', {
      key: account.testKey,
    });
    expect(ledger.body.data).toEqual([]);
  }, 60_000);
});

describe('validation before any timbre is reserved', () => {
  it('reports schema and fiscal problems with their field paths', async () => {
    const account = await stampingAccount(stack);
    const schema = await post(
      account.testKey,
      '/v1/invoices',
      invoiceBody(account.merchantId, {
        items: [{ productCode: '123', unitCode: 'H87', description: 'x', quantity: 0, unitPrice: 10 }],
      }),
    );
    expect(schema.status).toBe(400);
    expect(schema.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/items/0/productCode',
      '/items/0/quantity',
    ]);
    const fiscal = await post(
      account.testKey,
      '/v1/invoices',
      invoiceBody(account.merchantId, {
        metodoPago: 'PPD',
        formaPago: '03',
        items: [{ productCode: '99999999', unitCode: 'ZZZ', description: 'x', quantity: 1, unitPrice: 10 }],
      }),
    );
    expect(fiscal.status).toBe(400);
    expect(fiscal.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['/formaPago', '/items/0/productCode', '/items/0/unitCode']),
    );
    expect(
      (await stack.api.request('GET', '/v1/billing/transactions?type=consume', { key: account.testKey })).body
        .data,
    ).toEqual([]);
  }, 60_000);

  it("answers 404 for another account's or mode's merchant and 403 for a key restricted to other merchants", async () => {
    const account = await stampingAccount(stack);
    const other = await stampingAccount(stack);
    expect((await post(other.testKey, '/v1/invoices', invoiceBody(account.merchantId))).status).toBe(404);
    expect((await post(account.liveKey, '/v1/invoices', invoiceBody(account.merchantId))).status).toBe(404);
    const restricted = await keyForAnotherMerchant(stack.api, account);
    expect((await post(restricted, '/v1/invoices', invoiceBody(account.merchantId))).status).toBe(403);
  }, 60_000);

  it("keeps a restricted key out of another merchant's invoice through an Idempotency-Key, and does not keep its 403 under the key", async () => {
    const account = await stampingAccount(stack);
    const restricted = { secret: await keyForAnotherMerchant(stack.api, account) };
    const body = invoiceBody(account.merchantId);
    const send = (key: string, ik: string) =>
      stack.api.request('POST', '/v1/invoices', { key, headers: { 'idempotency-key': ik }, body });

    // The account's own key stamps; the restricted key replaying that key learns nothing of it.
    const ik = idempotencyKey();
    const stamped = await send(account.testKey, ik);
    expect(stamped.status).toBe(201);
    const peek = await send(restricted.secret, ik);
    expect({
      status: peek.status,
      code: peek.body.code,
      replayed: peek.headers.get('idempotency-replayed'),
      uuid: peek.body.uuid,
    }).toEqual({ status: 403, code: 'forbidden', replayed: null, uuid: undefined });
    expect((await send(account.testKey, ik)).headers.get('idempotency-replayed')).toBe('true');

    // The restricted key's 403 is about that key: the account's key then makes the same request with the same key.
    const other = idempotencyKey();
    expect((await send(restricted.secret, other)).status).toBe(403);
    const allowed = await send(account.testKey, other);
    expect({ status: allowed.status, replayed: allowed.headers.get('idempotency-replayed') }).toEqual({
      status: 201,
      replayed: null,
    });
  }, 60_000);
});

describe('GET /v1/invoices', () => {
  it('filters, paginates newest first and isolates accounts and modes', async () => {
    const account = await stampingAccount(stack);
    const ids: string[] = [];
    for (const metodo of ['PUE', 'PPD', 'PUE']) {
      const body = invoiceBody(
        account.merchantId,
        metodo === 'PPD' ? { metodoPago: 'PPD', formaPago: '99' } : {},
      );
      ids.push((await post(account.testKey, '/v1/invoices', body)).body.id);
    }
    const page1 = await stack.api.request('GET', '/v1/invoices?limit=2', { key: account.testKey });
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await stack.api.request('GET', `/v1/invoices?limit=2&starting_after=${ids[1]}`, {
      key: account.testKey,
    });
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
    expect(
      (await stack.api.request('GET', '/v1/invoices?metodoPago=PPD', { key: account.testKey })).body.data.map(
        (d: { id: string }) => d.id,
      ),
    ).toEqual([ids[1]]);
    const one = (await stack.api.request('GET', `/v1/invoices/${ids[0]}`, { key: account.testKey })).body;
    expect(
      (
        await stack.api.request('GET', `/v1/invoices?uuid=${one.uuid.toLowerCase()}`, {
          key: account.testKey,
        })
      ).body.data.map((d: { id: string }) => d.id),
    ).toEqual([ids[0]]);
    expect(
      (
        await stack.api.request(
          'GET',
          `/v1/invoices?merchantId=${account.merchantId}&status=stamped&kind=nominal`,
          { key: account.testKey },
        )
      ).body.data,
    ).toHaveLength(3);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(
      (await stack.api.request('GET', `/v1/invoices?createdFrom=${future}`, { key: account.testKey })).body
        .data,
    ).toEqual([]);
    expect(
      (await stack.api.request('GET', `/v1/invoices?createdTo=${future}`, { key: account.testKey })).body
        .data,
    ).toHaveLength(3);
    expect(
      (await stack.api.request('GET', '/v1/invoices?status=done', { key: account.testKey })).status,
    ).toBe(400);

    const other = await stack.api.newAccount();
    expect((await stack.api.request('GET', `/v1/invoices/${ids[0]}`, { key: other.testKey })).status).toBe(
      404,
    );
    expect((await stack.api.request('GET', `/v1/invoices/${ids[0]}`, { key: account.liveKey })).status).toBe(
      404,
    );
    expect((await stack.api.request('GET', '/v1/invoices', { key: account.liveKey })).body.data).toEqual([]);
  }, 90_000);
});
