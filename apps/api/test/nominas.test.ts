import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { parseTfd, verifySeal } from '@cfdi/cfdi';
import { adjustBalance, getBalanceCentavos } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { nominaBody, withEmployee } from './nomina-fixtures';
import { idempotencyKey, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', '/v1/nominas', { key, body, headers: { 'idempotency-key': ik } });
const get = (key: string, url: string) => stack.api.request('GET', url, { key });
const balance = (accountId: string) =>
  getBalanceCentavos(stack.api.orm.em.fork(), { accountId, livemode: false });
const eventTypes = async (accountId: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute('select type from events where account_id = ? order by id', [accountId])) as { type: string }[]
  ).map((e) => e.type);

function assertValidAgainstSatXsd(xml: string): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-nomina-')), 'doc.xml');
  fs.writeFileSync(file, xml);
  execFileSync(
    'xmllint',
    ['--noout', '--schema', path.join(defaultSatDir(), 'xml', 'cfdi40-bundle.xsd'), file],
    { stdio: 'pipe' },
  );
}

describe('POST /v1/nominas', () => {
  it('stamps a payroll receipt: 201 with totals computed, SAT-valid XML with a TFD, one timbre, files ready, a nomina.stamped event', async () => {
    const account = await stampingAccount(stack);
    const res = await post(account.testKey, nominaBody(account.merchantId, { folio: 'NOM-1' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'nomina',
      livemode: false,
      status: 'stamped',
      merchantId: account.merchantId,
      folioText: 'NOM-1',
      registroPatronal: 'B5510768108',
      employee: {
        rfc: 'XOJI740919U48',
        name: 'INGRID XODAR JIMENEZ',
        numEmpleado: 'E-120',
        tipoContrato: '01',
        tipoRegimen: '02',
        periodicidadPago: '04',
      },
      period: {
        tipoNomina: 'O',
        fechaPago: '2026-11-15',
        fechaInicialPago: '2026-11-01',
        fechaFinalPago: '2026-11-15',
        numDiasPagados: 15,
      },
      totals: {
        totalPercepciones: 7500,
        totalSueldos: 7500,
        totalGravado: 7250,
        totalExento: 250,
        totalDeducciones: 820.75,
        totalImpuestosRetenidos: 640.5,
        totalOtrasDeducciones: 180.25,
        totalOtrosPagos: 12.34,
        totalSeparacionIndemnizacion: null,
      },
      subtotal: 7512.34,
      discount: 820.75,
      total: 6691.59,
      cancellation: null,
      needsReconciliation: false,
    });
    expect(res.body.id).toMatch(/^nom_/);
    expect(res.body.files).toMatchObject({
      status: 'ready',
      xmlUrl: expect.any(String),
      pdfUrl: expect.any(String),
    });

    const row = (
      await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [res.body.id])
    )[0] as { stamped_xml: string };
    expect(parseTfd(row.stamped_xml)?.uuid).toBe(res.body.uuid);
    expect(verifySeal(row.stamped_xml).valid).toBe(true);
    assertValidAgainstSatXsd(row.stamped_xml);
    expect(row.stamped_xml).toContain('TipoDeComprobante="N"');
    expect(row.stamped_xml).toContain('Antigüedad="P617W"');
    expect(row.stamped_xml).toContain('<nomina12:SubsidioAlEmpleo SubsidioCausado="20.00"/>');
    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect(await eventTypes(account.accountId)).toEqual(['nomina.stamped']);

    const pdf = await fetch(
      stack.api.url + new URL(res.body.files.pdfUrl).pathname + new URL(res.body.files.pdfUrl).search,
    );
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);

    const again = await get(account.testKey, `/v1/nominas/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, uuid: res.body.uuid, total: 6691.59 });
  }, 90_000);

  it('lists receipts newest first with the employee, payment date, status, uuid and merchant filters; other accounts see none of them', async () => {
    const account = await stampingAccount(stack);
    const a = await post(account.testKey, nominaBody(account.merchantId));
    const b = await post(
      account.testKey,
      withEmployee(
        account.merchantId,
        { rfc: 'FUNK671228PH6', name: 'KARLA FUENTE NOLASCO', zip: '01160', curp: 'FUNK671228MDFNLR09' },
        {
          period: {
            tipoNomina: 'O',
            fechaPago: '2026-10-31',
            fechaInicialPago: '2026-10-16',
            fechaFinalPago: '2026-10-31',
            numDiasPagados: 16,
          },
        },
      ),
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    const ids = async (query: string) =>
      (await get(account.testKey, `/v1/nominas${query}`)).body.data.map((n: { id: string }) => n.id);
    expect(await ids('')).toEqual([b.body.id, a.body.id]);
    expect(await ids('?employeeRfc=FUNK671228PH6')).toEqual([b.body.id]);
    expect(await ids('?paymentDateFrom=2026-11-01')).toEqual([a.body.id]);
    expect(await ids('?paymentDateTo=2026-10-31')).toEqual([b.body.id]);
    expect(await ids(`?uuid=${a.body.uuid.toLowerCase()}`)).toEqual([a.body.id]);
    expect(await ids('?status=cancelled')).toEqual([]);
    expect(await ids(`?merchantId=${account.merchantId}&limit=1`)).toEqual([b.body.id]);
    expect(await ids(`?starting_after=${b.body.id}`)).toEqual([a.body.id]);
    expect((await get(account.testKey, '/v1/nominas?paymentDateFrom=15-11-2026')).status).toBe(400);
    // Invoices and payroll receipts are separate resources.
    expect((await get(account.testKey, `/v1/invoices/${a.body.id}`)).status).toBe(404);

    // Another account, and the same account's other mode (its live key), see nothing of a test receipt.
    const other = await stampingAccount(stack);
    for (const key of [other.testKey, account.liveKey]) {
      expect((await get(key, `/v1/nominas/${a.body.id}`)).status).toBe(404);
      expect((await get(key, '/v1/nominas')).body.data).toEqual([]);
      expect((await get(key, `/v1/nominas?uuid=${a.body.uuid}`)).body.data).toEqual([]);
      const cancel = await stack.api.request('POST', `/v1/nominas/${a.body.id}/cancel`, {
        key,
        body: { motivo: '02' },
        headers: { 'idempotency-key': idempotencyKey() },
      });
      expect(cancel.status).toBe(404);
    }
  }, 90_000);

  it('cancels without the employee accepting: 202 and cancelled, one timbre, nomina.cancelled', async () => {
    const account = await stampingAccount(stack);
    const created = await post(account.testKey, nominaBody(account.merchantId));
    expect(created.status).toBe(201);
    const cancel = await stack.api.request('POST', `/v1/nominas/${created.body.id}/cancel`, {
      key: account.testKey,
      body: { motivo: '02' },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(cancel.status).toBe(202);
    const done = await waitFor(
      async () => {
        const res = await get(account.testKey, `/v1/nominas/${created.body.id}`);
        return res.body.status === 'cancelled' ? res.body : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(done.cancellation).toMatchObject({ motivo: '02', status: 'accepted' });
    expect(await balance(account.accountId)).toBe(100000 - 200);
    expect(await eventTypes(account.accountId)).toEqual(['nomina.stamped', 'nomina.cancelled']);
  }, 90_000);

  it('substitution: a replacement relates the original with 04, then the original is cancelled with motive 01 and its UUID', async () => {
    const account = await stampingAccount(stack);
    const original = await post(account.testKey, nominaBody(account.merchantId));
    expect(original.status).toBe(201);
    const replacement = await post(
      account.testKey,
      nominaBody(account.merchantId, {
        relatedDocuments: [{ tipoRelacion: '04', uuids: [original.body.uuid.toLowerCase()] }],
      }),
    );
    expect(replacement.status).toBe(201);
    expect(replacement.body.relatedDocuments).toEqual([{ tipoRelacion: '04', uuids: [original.body.uuid] }]);
    const row = (
      await stack.api.orm.em
        .fork()
        .execute('select stamped_xml from documents where id = ?', [replacement.body.id])
    )[0] as { stamped_xml: string };
    expect(row.stamped_xml).toContain(
      `<cfdi:CfdiRelacionados TipoRelacion="04"><cfdi:CfdiRelacionado UUID="${original.body.uuid}"/></cfdi:CfdiRelacionados>`,
    );
    expect(verifySeal(row.stamped_xml).valid).toBe(true);
    assertValidAgainstSatXsd(row.stamped_xml);

    const cancel = await stack.api.request('POST', `/v1/nominas/${original.body.id}/cancel`, {
      key: account.testKey,
      body: { motivo: '01', folioSustitucion: replacement.body.uuid },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect(cancel.status).toBe(202);
    const done = await waitFor(
      async () => {
        const res = await get(account.testKey, `/v1/nominas/${original.body.id}`);
        return res.body.status === 'cancelled' || res.body.status === 'stamped' ? res.body : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(done).toMatchObject({
      status: 'cancelled',
      cancellation: { motivo: '01', folioSustitucion: replacement.body.uuid, status: 'accepted' },
    });
    expect((await get(account.testKey, `/v1/nominas/${replacement.body.id}`)).body.status).toBe('stamped');

    // A cancelled receipt is no longer replaced; an invoice never is by a payroll receipt.
    const again = await post(
      account.testKey,
      nominaBody(account.merchantId, {
        relatedDocuments: [{ tipoRelacion: '04', uuids: [original.body.uuid] }],
      }),
    );
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([
      { path: '/relatedDocuments/0/uuids/0', message: expect.stringContaining('is cancelled') },
    ]);
  }, 120_000);

  it('idempotency: replays the stored answer, 409 while the first is in flight, 422 for another body under the same key', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const [a, b] = await Promise.all([
      post(account.testKey, nominaBody(account.merchantId), ik),
      post(account.testKey, nominaBody(account.merchantId), ik),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('request_in_flight');
    const first = [a, b].find((r) => r.status === 201)!;
    const replay = await post(account.testKey, nominaBody(account.merchantId), ik);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    const reuse = await post(account.testKey, nominaBody(account.merchantId, { folio: 'other' }), ik);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect((await get(account.testKey, '/v1/nominas')).body.data).toHaveLength(1);
  }, 90_000);

  it("uses the merchant's registro patronal for a subordinate employee whose receipt does not send one", async () => {
    const account = await stampingAccount(stack);
    const { registroPatronal: _r, ...body } = nominaBody(account.merchantId);
    const without = await post(account.testKey, body);
    expect(without.status).toBe(400);
    expect(without.body.errors[0]).toMatchObject({
      path: '/registroPatronal',
      message: expect.stringContaining('NOM161'),
    });
    const patched = await stack.api.request('PATCH', `/v1/merchants/${account.merchantId}`, {
      key: account.testKey,
      body: { registroPatronal: 'Y5310768109' },
    });
    expect(patched.body.registroPatronal).toBe('Y5310768109');
    const res = await post(account.testKey, body);
    expect(res.status).toBe(201);
    expect(res.body.registroPatronal).toBe('Y5310768109');
    const xml = (
      (
        await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [res.body.id])
      )[0] as { stamped_xml: string }
    ).stamped_xml;
    expect(xml).toContain('RegistroPatronal="Y5310768109"');
  }, 60_000);

  it('402 insufficient_credits reserves nothing and creates nothing', async () => {
    const account = await stampingAccount(stack);
    await adjustBalance(
      stack.api.orm.em.fork(),
      { accountId: account.accountId, livemode: false },
      { type: 'adjustment', deltaCentavos: -99_950, note: 'test: 50 centavos left' },
    );
    const res = await post(account.testKey, nominaBody(account.merchantId));
    expect(res.status).toBe(402);
    expect(res.body.code).toBe('insufficient_credits');
    expect((await get(account.testKey, '/v1/nominas')).body.data).toEqual([]);
  }, 60_000);
});
