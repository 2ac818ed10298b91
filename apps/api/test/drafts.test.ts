import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { adjustBalance, getBalanceCentavos } from '@cfdi/services';
import { keyForAnotherMerchant } from './restricted-key';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const send = (key: string, method: string, url: string, body?: unknown, ik?: string) =>
  stack.api.request(method, url, {
    key,
    ...(body !== undefined ? { body } : {}),
    ...(ik ? { headers: { 'idempotency-key': ik } } : {}),
  });
const createDraft = (account: Account, overrides: Record<string, unknown> = {}) =>
  send(
    account.testKey,
    'POST',
    '/v1/invoices',
    invoiceBody(account.merchantId, { status: 'draft', ...overrides }),
    idempotencyKey(),
  );
const stamp = (key: string, id: string, ik = idempotencyKey()) =>
  send(key, 'POST', `/v1/invoices/${id}/stamp`, undefined, ik);
const balance = (account: Account) =>
  getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false });

async function stampedXml(id: string): Promise<string> {
  const rows = (await stack.api.orm.em
    .fork()
    .execute('select stamped_xml from documents where id = ?', [id])) as [{ stamped_xml: string }];
  return rows[0].stamped_xml;
}
const attr = (xml: string, name: string) =>
  new RegExp(`<cfdi:Comprobante[^>]* ${name}="([^"]*)"`).exec(xml)?.[1];

/** The preview's text, as pdftotext reads it (the PDF's own words, not our model of it). */
async function previewText(key: string, id: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${stack.api.url}/v1/invoices/${id}/preview.pdf`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (res.status !== 200) return { status: res.status, text: await res.text() };
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'draft-')), 'preview.pdf');
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return { status: 200, text: execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }) };
}

describe('drafts', () => {
  it('creates, edits, previews and stamps a draft: the preview and the stamped XML agree, the timbre is taken at the stamp', async () => {
    const account = await stampingAccount(stack);
    const before = await balance(account);
    const created = await createDraft(account);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'draft', folio: null, uuid: null, kind: 'nominal' });
    const id = created.body.id as string;

    const edited = await send(account.testKey, 'PATCH', `/v1/invoices/${id}`, {
      items: [
        { productCode: '43211503', unitCode: 'H87', description: 'Monitor', quantity: 3, unitPrice: 1160 },
      ],
      folio: null,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id, status: 'draft', subtotal: 3000, total: 3480, folio: null });
    expect(await balance(account)).toBe(before);
    const listed = await send(account.testKey, 'GET', '/v1/invoices?status=draft');
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([id]);

    const preview = await previewText(account.testKey, id);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('SIN VALIDEZ FISCAL');
    expect(preview.text).toContain('Monitor');
    expect(preview.text).toMatch(/Subtotal \$3000\.00/);
    expect(preview.text).toMatch(/IVA trasladado 0\.160000 \(base 3000\.00\) \$480\.00/);
    expect(preview.text).toMatch(/Total \$3480\.00/);
    expect(preview.text).not.toMatch(/Sello digital/);

    const stamped = await stamp(account.testKey, id);
    expect(stamped.status).toBe(201);
    expect(stamped.body).toMatchObject({ id, status: 'stamped', subtotal: 3000, total: 3480 });
    expect(stamped.body.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(typeof stamped.body.folio).toBe('number');
    const xml = await stampedXml(id);
    expect([attr(xml, 'SubTotal'), attr(xml, 'Total')]).toEqual(['3000.00', '3480.00']);
    expect(xml).toMatch(/<cfdi:Impuestos TotalImpuestosTrasladados="480.00"/);
    expect(await balance(account)).toBeLessThan(before);

    // A stamped document is no draft any more.
    for (const [method, url] of [
      ['PATCH', `/v1/invoices/${id}`],
      ['DELETE', `/v1/invoices/${id}`],
      ['POST', `/v1/invoices/${id}/stamp`],
    ] as const) {
      const res = await send(
        account.testKey,
        method,
        url,
        method === 'PATCH' ? { usoCfdi: 'G01' } : undefined,
        idempotencyKey(),
      );
      expect([method, res.status, res.body.code]).toEqual([method, 409, 'not_a_draft']);
    }
    expect((await previewText(account.testKey, id)).status).toBe(409);
  }, 90_000);

  it('stamps a draft once when two stamps race, and charges one timbre', async () => {
    const account = await stampingAccount(stack);
    const { body: draft } = await createDraft(account);
    const before = await balance(account);
    const answers = await Promise.all([stamp(account.testKey, draft.id), stamp(account.testKey, draft.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const consumes = (await stack.api.orm.em
      .fork()
      .execute(`select count(*)::int as n from transactions where account_id = ? and type = 'consume'`, [
        account.accountId,
      ])) as [{ n: number }];
    expect(consumes[0].n).toBe(1);
    expect(before - (await balance(account))).toBeGreaterThan(0);
  }, 90_000);

  it('answers 402 when the balance does not cover a timbre and leaves the draft a draft; the same key stamps after a top-up', async () => {
    const account = await stampingAccount(stack);
    const { body: draft } = await createDraft(account);
    const scope = { accountId: account.accountId, livemode: false };
    const left = await balance(account);
    await adjustBalance(stack.api.orm.em.fork(), scope, {
      type: 'adjustment',
      deltaCentavos: -left,
      note: 'empty',
    });
    const ik = idempotencyKey();
    const refused = await stamp(account.testKey, draft.id, ik);
    expect([refused.status, refused.body.code]).toEqual([402, 'insufficient_credits']);
    const still = await send(account.testKey, 'GET', `/v1/invoices/${draft.id}`);
    expect(still.body).toMatchObject({ status: 'draft', folio: null });
    await adjustBalance(stack.api.orm.em.fork(), scope, {
      type: 'adjustment',
      deltaCentavos: left,
      note: 'back',
    });
    const stamped = await stamp(account.testKey, draft.id, ik);
    expect(stamped.status).toBe(201);
    const replay = await stamp(account.testKey, draft.id, ik);
    expect([replay.status, replay.headers.get('idempotency-replayed'), replay.body.uuid]).toEqual([
      201,
      'true',
      stamped.body.uuid,
    ]);
  }, 90_000);

  it('copies a stamped invoice into a draft that stamps into an equal document with another UUID and folio', async () => {
    const account = await stampingAccount(stack);
    const original = await send(
      account.testKey,
      'POST',
      '/v1/invoices',
      invoiceBody(account.merchantId),
      idempotencyKey(),
    );
    expect(original.status).toBe(201);
    const copy = await send(account.testKey, 'POST', `/v1/invoices/${original.body.id}/copy`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ status: 'draft', folio: null, total: original.body.total });
    expect(copy.body.id).not.toBe(original.body.id);
    const stamped = await stamp(account.testKey, copy.body.id);
    expect(stamped.status).toBe(201);
    expect(stamped.body.uuid).not.toBe(original.body.uuid);
    expect(stamped.body.folio).not.toBe(original.body.folio);
    const pick = ({ subtotal, discount, total, receiver, metodoPago, formaPago, usoCfdi, kind }: any) => ({
      subtotal,
      discount,
      total,
      receiver,
      metodoPago,
      formaPago,
      usoCfdi,
      kind,
    });
    expect(pick(stamped.body)).toEqual(pick(original.body));
    const [a, b] = [await stampedXml(original.body.id), await stampedXml(stamped.body.id)];
    const concepts = (xml: string) => xml.match(/<cfdi:Conceptos>.*<\/cfdi:Conceptos>/s)?.[0];
    expect(concepts(b)).toEqual(concepts(a));
  }, 90_000);

  it('deletes a draft (204, then 404) and never deletes a stamped document', async () => {
    const account = await stampingAccount(stack);
    const { body: draft } = await createDraft(account);
    expect((await send(account.testKey, 'DELETE', `/v1/invoices/${draft.id}`)).status).toBe(204);
    expect((await send(account.testKey, 'GET', `/v1/invoices/${draft.id}`)).status).toBe(404);
    expect((await send(account.testKey, 'DELETE', `/v1/invoices/${draft.id}`)).status).toBe(404);
  }, 60_000);

  it('names the invalid field on create-as-draft and on PATCH, and leaves the draft unchanged', async () => {
    const account = await stampingAccount(stack);
    const bad = await createDraft(account, { usoCfdi: 'ZZZ' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toContain('/usoCfdi');
    const shape = await createDraft(account, { status: 'stamped' });
    expect([shape.status, shape.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      400,
      ['/status'],
    ]);

    const { body: draft } = await createDraft(account);
    const patch = (body: unknown) => send(account.testKey, 'PATCH', `/v1/invoices/${draft.id}`, body);
    const cases: Array<[unknown, string]> = [
      [{ items: [{ ...invoiceBody('').items[0], quantity: -1 }] }, '/items/0/quantity'],
      [{ receiver: { rfc: 'nope', name: 'X', zip: '86991', regimenFiscal: '601' } }, '/receiver/rfc'],
      [{ usoCfdi: 'ZZZ' }, '/usoCfdi'],
      [{ formaPago: null }, '/formaPago'],
      [{ relatedInvoiceId: 'inv_x' }, '/relatedInvoiceId'],
      [{ bogus: 1 }, '/bogus'],
    ];
    for (const [body, path] of cases) {
      const res = await patch(body);
      expect([path, res.status, res.body.errors?.map((e: { path: string }) => e.path)]).toEqual([
        path,
        400,
        expect.arrayContaining([path]),
      ]);
    }
    const after = await send(account.testKey, 'GET', `/v1/invoices/${draft.id}`);
    expect(after.body).toEqual(draft);
  }, 60_000);

  it('answers 404 on every draft route to another account, the other mode and a key restricted to other merchants', async () => {
    const account = await stampingAccount(stack);
    const other = await stampingAccount(stack);
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const { body: draft } = await createDraft(account);
    const routes: Array<[string, string, unknown?]> = [
      ['PATCH', `/v1/invoices/${draft.id}`, { usoCfdi: 'G01' }],
      ['POST', `/v1/invoices/${draft.id}/stamp`],
      ['POST', `/v1/invoices/${draft.id}/copy`],
      ['DELETE', `/v1/invoices/${draft.id}`],
    ];
    for (const key of [other.testKey, account.liveKey, restricted]) {
      for (const [method, url, body] of routes) {
        const res = await send(key, method, url, body, idempotencyKey());
        expect([method, url, res.status, res.body.code]).toEqual([method, url, 404, 'not_found']);
      }
      expect((await previewText(key, draft.id)).status).toBe(404);
    }
    const untouched = await send(account.testKey, 'GET', `/v1/invoices/${draft.id}`);
    expect(untouched.body).toEqual(draft);
  }, 60_000);
});
