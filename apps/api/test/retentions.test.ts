import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal, parseTfd, verifySeal } from '@cfdi/cfdi';
import { waitFor } from '@cfdi/testkit';
import { verifyWebhook } from '@cfdi/webhook-verify';
import { keyForAnotherMerchant } from './restricted-key';
import { retentionBody } from './retention-fixtures';
import { documentKindSuite } from './kind-suite';
import { idempotencyKey, stampingAccount, type StackHarness } from './stack';
import type { Receiver } from './webhook-receiver';

// Withholding certificates (Retenciones 2.0) through /v1/retentions on the real stack: the document-kind registry
// stamps, looks up and cancels them through the PAC's retentions service, with the invoices' ledger, idempotency,
// webhooks, files and isolation.

let stack: StackHarness;
let receiver: Receiver;
const suite = documentKindSuite(
  '/v1/retentions',
  {
    // An ambiguous stamp is looked up at the PAC after a second (one test resets the connection after stamping).
    RECONCILIATION_FIRST_LOOKUP_SECONDS: '1',
    CANCELLATION_FIRST_POLL_SECONDS: '1',
    CANCELLATION_MAX_POLL_SECONDS: '1',
  },
  (started, endpoint) => {
    stack = started;
    receiver = endpoint;
  },
);

type Account = Awaited<ReturnType<typeof stampingAccount>>;
const { post, get, cancel, balance, eventTypes, ledger, injectFault, download } = suite;
const row = (id: string) =>
  suite.row<{
    stamped_xml: string;
    sealed_xml: string;
    needs_reconciliation: boolean;
  }>(id);

const RETENCIONES_DIR = path.join(defaultSatDir(), 'xml', 'www.sat.gob.mx/esquemas/retencionpago/2');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-retentions-'));

/** retencionpagov2.xsd declares Complemento a strict xs:any: the TFD's schema is loaded beside it (as the corpus does). */
function assertValidAgainstSatXsd(xml: string): void {
  const bundle = path.join(workDir, 'retenciones-bundle.xsd');
  const tfd = path.join(
    defaultSatDir(),
    'xml',
    'www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd',
  );
  fs.writeFileSync(
    bundle,
    `<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:local:retenciones-bundle">
  <xs:import namespace="http://www.sat.gob.mx/esquemas/retencionpago/2" schemaLocation="${path.join(RETENCIONES_DIR, 'retencionpagov2.xsd')}"/>
  <xs:import namespace="http://www.sat.gob.mx/TimbreFiscalDigital" schemaLocation="${tfd}"/>
</xs:schema>`,
  );
  const file = path.join(workDir, `doc-${Date.now()}.xml`);
  fs.writeFileSync(file, xml);
  execFileSync('xmllint', ['--noout', '--schema', bundle, file], { stdio: 'pipe' });
}

/** The SAT's cadena of the document, by xsltproc with retenciones.xslt. */
function satCadena(xml: string): string {
  const file = path.join(workDir, `cadena-${Date.now()}.xml`);
  fs.writeFileSync(file, xml);
  // xsltproc warns that the stylesheets say version 2.0 (it runs them as 1.0, which they are written in).
  return execFileSync('xsltproc', [path.join(RETENCIONES_DIR, 'retenciones.xslt'), file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

async function endpoint(key: string, hookPath: string, enabledEvents: string[]) {
  const res = await stack.api.request('POST', '/v1/webhook_endpoints', {
    key,
    body: { url: receiver.url(hookPath), enabledEvents },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

async function statusOf(account: Account, id: string, status: string) {
  return waitFor(
    async () => {
      const current = (await get(account.testKey, `/v1/retentions/${id}`)).body;
      return current.status === status ? current : undefined;
    },
    { timeoutMs: 60_000, what: `${id} to be ${status}` },
  );
}

describe('POST /v1/retentions', () => {
  it('stamps a certificate through the retentions service: 201, SAT-valid XML and cadena, one timbre, the XML as its only file, retention.stamped delivered', async () => {
    const account = await stampingAccount(stack);
    const hookPath = `/hooks/ret-${Date.now()}`;
    const hook = await endpoint(account.testKey, hookPath, ['retention.stamped']);

    const res = await post(account.testKey, retentionBody(account.merchantId));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'retention',
      livemode: false,
      status: 'stamped',
      merchantId: account.merchantId,
      folio: 1,
      folioInt: '1',
      cveRetenc: '16',
      descRetenc: null,
      receiver: { nacionalidad: 'Nacional', rfc: 'URE180429TM6', zip: '86991', curp: null },
      period: { mesIni: 1, mesFin: 12, ejercicio: 2025 },
      totals: {
        montoTotOperacion: 51234.5,
        montoTotGrav: 50000,
        montoTotExent: 1234.5,
        montoTotRet: 15333.33,
        utilidadBimestral: null,
      },
      withholdings: [
        { baseRet: 50000, impuestoRet: '001', montoRet: 10000, tipoPagoRet: '01' },
        { baseRet: null, impuestoRet: '002', montoRet: 5333.33, tipoPagoRet: '01' },
      ],
      related: null,
      cancellation: null,
      needsReconciliation: false,
      failure: null,
    });
    expect(res.body.id).toMatch(/^ret_/);
    expect(res.body.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(res.body.fechaExp).toMatch(/^2026-11-\d{2}T\d{2}:\d{2}:\d{2}$/);
    // XML only: no PDF or ZIP link.
    expect(Object.keys(res.body.files).sort()).toEqual(['status', 'xmlUrl']);
    expect(res.body.files.status).toBe('ready');

    const { stamped_xml: xml } = await row(res.body.id);
    expect(xml).toContain('<retenciones:Retenciones');
    expect(parseTfd(xml)?.uuid).toBe(res.body.uuid);
    expect(verifySeal(xml).valid).toBe(true);
    assertValidAgainstSatXsd(xml);
    expect(cadenaOriginal(xml)).toBe(satCadena(xml));
    expect(xml).toContain('MontoTotOperacion="51234.50"');
    expect(xml).toContain('MontoTotRet="15333.33"');

    const file = await download(res.body.files.xmlUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/application\/xml/);
    expect(await file.text()).toBe(xml);
    // The PDF a CFDI would have is never produced for a certificate, even through a correctly signed URL.
    const pdfKey = `${account.accountId}/test/documents/${res.body.id}/${res.body.uuid}.pdf`;
    expect((await download(stack.api.deps.fileUrls.url(pdfKey))).status).toBe(404);
    const email = await stack.api.request('POST', `/v1/retentions/${res.body.id}/email`, {
      key: account.testKey,
      body: {},
    });
    expect(email.status).toBe(404);

    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect(await ledger(account.accountId)).toEqual([
      { type: 'consume', delta_centavos: '-100', reference_type: 'retention', reference_id: res.body.id },
    ]);
    expect(await eventTypes(account.accountId)).toEqual(['retention.stamped']);

    const [delivery] = await receiver.waitFor(hookPath, 1);
    const event = verifyWebhook<any>(
      delivery!.rawBody,
      delivery!.headers['cfdi-signature'] as string,
      hook.secret,
    );
    expect(event).toMatchObject({ type: 'retention.stamped', data: { object: { id: res.body.id } } });
    expect(event.data.object.uuid).toBe(res.body.uuid);

    const again = await get(account.testKey, `/v1/retentions/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, uuid: res.body.uuid, totals: res.body.totals });
  }, 90_000);

  it('stamps a certificate to a foreign receiver with nothing withheld, and FolioInt as sent', async () => {
    const account = await stampingAccount(stack);
    const res = await post(
      account.testKey,
      retentionBody(account.merchantId, {
        folioInt: 'A77',
        cveRetenc: '25',
        descRetenc: 'Regalías & otros',
        receiver: { nacionalidad: 'Extranjero', name: 'ACME HOLDINGS LLC', numRegIdTrib: '98-7654321' },
        withholdings: [],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      folioInt: 'A77',
      descRetenc: 'Regalías & otros',
      receiver: { nacionalidad: 'Extranjero', name: 'ACME HOLDINGS LLC', numRegIdTrib: '98-7654321' },
      totals: { montoTotRet: 0 },
      withholdings: [],
    });
    const { stamped_xml: xml } = await row(res.body.id);
    assertValidAgainstSatXsd(xml);
    expect(cadenaOriginal(xml)).toBe(satCadena(xml));
    expect(xml).toContain('DescRetenc="Regalías &amp; otros"');
  }, 60_000);

  it('refuses rule violations with 400 and their paths, before any charge', async () => {
    const account = await stampingAccount(stack);
    const res = await post(
      account.testKey,
      retentionBody(account.merchantId, {
        cveRetenc: '25',
        receiver: {
          nacionalidad: 'Nacional',
          rfc: 'XAXX010101000',
          name: 'PUBLICO EN GENERAL',
          zip: '86991',
        },
        period: { mesIni: 7, mesFin: 3, ejercicio: 2027 },
        totals: { montoTotGrav: 100, montoTotExent: 0, montoTotOperacion: 90, montoTotRet: 1 },
        withholdings: [{ impuestoRet: '001', montoRet: 10, tipoPagoRet: '09' }],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
    expect(res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(
      [
        '/descRetenc',
        '/receiver/rfc',
        '/period/mesFin',
        '/period/ejercicio',
        '/totals/montoTotOperacion',
        '/totals/montoTotRet',
        '/withholdings/0/tipoPagoRet',
      ].sort(),
    );
    // A mismatched sum is named once every withholding is well formed.
    const sums = await post(
      account.testKey,
      retentionBody(account.merchantId, { totals: { montoTotGrav: 100, montoTotExent: 0, montoTotRet: 1 } }),
    );
    expect(sums.status).toBe(400);
    expect(sums.body.errors).toEqual([
      { path: '/totals/montoTotRet', message: expect.stringContaining('15333.33') },
    ]);
    // The schema's own checks come first, with their paths too.
    const shape = await post(account.testKey, retentionBody(account.merchantId, { cveRetenc: 16 }));
    expect(shape.status).toBe(400);
    expect(shape.body.errors[0].path).toBe('/cveRetenc');
    expect(await balance(account.accountId)).toBe(100000);
    expect((await get(account.testKey, '/v1/retentions')).body.data).toEqual([]);
  }, 60_000);

  it('refunds the timbre when the retentions service refuses the certificate: 422 sat_rejected, retention.stamp_failed', async () => {
    const account = await stampingAccount(stack);
    // Only the retentions service refuses: the CFDI stamp service would have stamped it.
    await injectFault('retention_stamp', 'reject', { code: '302', message: 'Sello mal formado o inválido' });
    const res = await post(account.testKey, retentionBody(account.merchantId));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'sat_rejected', satCode: '302' });
    expect(await balance(account.accountId)).toBe(100000);
    const entries = await ledger(account.accountId);
    expect(entries.map((e) => [e.type, e.delta_centavos])).toEqual([
      ['consume', '-100'],
      ['refund', '100'],
    ]);
    const [failed] = (await get(account.testKey, '/v1/retentions?status=stamp_failed')).body.data;
    expect(failed).toMatchObject({ status: 'stamp_failed', failure: { code: '302' }, uuid: null });
    expect(await eventTypes(account.accountId)).toEqual(['retention.stamp_failed']);
  }, 60_000);

  it('an ambiguous stamp (the connection reset after the PAC stamped) is resolved by the retentions lookup', async () => {
    const account = await stampingAccount(stack);
    await injectFault('retention_stamp', 'process_then_reset');
    const res = await post(account.testKey, retentionBody(account.merchantId));
    expect(res.status).toBe(202);
    const stamped = await statusOf(account, res.body.id, 'stamped');
    expect(stamped.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(parseTfd((await row(res.body.id)).stamped_xml)?.uuid).toBe(stamped.uuid);
    expect(await balance(account.accountId)).toBe(100000 - 100);
  }, 90_000);

  it('idempotency: 409 while the first is in flight, the stored answer replayed, 422 for another body', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const [a, b] = await Promise.all([
      post(account.testKey, retentionBody(account.merchantId), ik),
      post(account.testKey, retentionBody(account.merchantId), ik),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.code).toBe('request_in_flight');
    const first = [a, b].find((r) => r.status === 201)!;
    const replay = await post(account.testKey, retentionBody(account.merchantId), ik);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    const reuse = await post(account.testKey, retentionBody(account.merchantId, { folioInt: 'X1' }), ik);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect((await get(account.testKey, '/v1/retentions')).body.data).toHaveLength(1);
  }, 90_000);
});

describe('GET /v1/retentions', () => {
  it('lists newest first with filters and pages; other accounts and the live mode see none of them', async () => {
    const account = await stampingAccount(stack);
    const a = await post(account.testKey, retentionBody(account.merchantId));
    const b = await post(
      account.testKey,
      retentionBody(account.merchantId, {
        receiver: { nacionalidad: 'Nacional', rfc: 'EKU9003173C9', name: 'X', zip: '86991' },
      }),
    );
    // The issuer's own RFC is refused (one does not withhold from oneself); another receiver stamps.
    expect(b.status).toBe(400);
    expect(b.body.errors[0].path).toBe('/receiver/rfc');
    const c = await post(
      account.testKey,
      retentionBody(account.merchantId, {
        receiver: {
          nacionalidad: 'Nacional',
          rfc: 'XOJI740919U48',
          name: 'INGRID XODAR JIMENEZ',
          zip: '76028',
        },
      }),
    );
    expect([a.status, c.status]).toEqual([201, 201]);
    expect(c.body.folio).toBe(a.body.folio + 1);

    const ids = async (query: string) =>
      (await get(account.testKey, `/v1/retentions${query}`)).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([c.body.id, a.body.id]);
    expect(await ids('?receiverRfc=XOJI740919U48')).toEqual([c.body.id]);
    expect(await ids(`?uuid=${a.body.uuid.toLowerCase()}`)).toEqual([a.body.id]);
    expect(await ids('?status=stamped&limit=1')).toEqual([c.body.id]);
    expect(await ids(`?starting_after=${c.body.id}`)).toEqual([a.body.id]);
    expect(await ids(`?merchantId=${account.merchantId}`)).toEqual([c.body.id, a.body.id]);
    expect(await ids('?status=cancelled')).toEqual([]);
    expect((await get(account.testKey, '/v1/retentions?receiverRfc=nope')).status).toBe(400);
    // Certificates are their own resource: not an invoice, not in the invoices' list.
    expect((await get(account.testKey, `/v1/invoices/${a.body.id}`)).status).toBe(404);
    expect((await get(account.testKey, '/v1/invoices')).body.data).toEqual([]);

    const other = await stampingAccount(stack);
    for (const key of [other.testKey, account.liveKey]) {
      expect((await get(key, `/v1/retentions/${a.body.id}`)).status).toBe(404);
      expect((await get(key, '/v1/retentions')).body.data).toEqual([]);
      expect((await get(key, `/v1/retentions?uuid=${a.body.uuid}`)).body.data).toEqual([]);
      expect((await cancel(key, a.body.id)).status).toBe(404);
    }
  }, 90_000);
});

describe('a key restricted to other merchants', () => {
  it("gets 403 problem+json on creating, reading and cancelling the merchant's certificates, lists none of them and is charged nothing", async () => {
    const account = await stampingAccount(stack);
    const created = await post(account.testKey, retentionBody(account.merchantId));
    expect(created.status).toBe(201);
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const before = await balance(account.accountId);

    const refusals = [
      await post(restricted, retentionBody(account.merchantId)),
      await get(restricted, `/v1/retentions/${created.body.id}`),
      await cancel(restricted, created.body.id),
    ];
    for (const res of refusals) {
      expect({
        status: res.status,
        type: res.headers.get('content-type'),
        code: res.body.code,
      }).toEqual({
        status: 403,
        type: expect.stringMatching(/^application\/problem\+json/),
        code: 'forbidden',
      });
      expect(res.body.detail).toContain(account.merchantId);
    }
    // A list is of the key's merchants: the certificate is not in it, even asked for by its merchant or UUID.
    for (const query of ['', `?merchantId=${account.merchantId}`, `?uuid=${created.body.uuid}`]) {
      const list = await get(restricted, `/v1/retentions${query}`);
      expect([query, list.status, list.body.data]).toEqual([query, 200, []]);
    }
    // Nothing was stamped, reserved or cancelled on its behalf.
    expect(await balance(account.accountId)).toBe(before);
    expect((await get(account.testKey, `/v1/retentions/${created.body.id}`)).body.status).toBe('stamped');
    expect((await get(account.testKey, '/v1/retentions')).body.data.map((r: { id: string }) => r.id)).toEqual(
      [created.body.id],
    );
  }, 60_000);
});

describe('POST /v1/retentions/{id}/cancel', () => {
  it('cancels through the retentions service without acceptance: 202, cancelled, one timbre, the acuse, retention.cancelled delivered', async () => {
    const account = await stampingAccount(stack);
    const hookPath = `/hooks/ret-cancel-${Date.now()}`;
    const hook = await endpoint(account.testKey, hookPath, ['retention.cancelled']);
    const created = await post(account.testKey, retentionBody(account.merchantId));
    expect(created.status).toBe(201);

    const res = await cancel(account.testKey, created.body.id);
    expect(res.status).toBe(202);
    expect(res.body.object).toBe('retention');
    const done = await statusOf(account, created.body.id, 'cancelled');
    expect(done.cancellation).toMatchObject({
      motivo: '02',
      status: 'accepted',
      acuse: { uuid: created.body.uuid, xmlUrl: expect.any(String) },
    });
    expect((await download(done.cancellation.acuse.xmlUrl)).status).toBe(200);
    expect(await balance(account.accountId)).toBe(100000 - 200);
    expect((await ledger(account.accountId)).map((e) => [e.type, e.reference_type])).toEqual([
      ['consume', 'retention'],
      ['consume', 'cancellation'],
    ]);
    expect(await eventTypes(account.accountId)).toEqual(['retention.stamped', 'retention.cancelled']);
    const [delivery] = await receiver.waitFor(hookPath, 1);
    const event = verifyWebhook<any>(
      delivery!.rawBody,
      delivery!.headers['cfdi-signature'] as string,
      hook.secret,
    );
    expect(event).toMatchObject({
      type: 'retention.cancelled',
      data: { object: { id: created.body.id, status: 'cancelled' } },
    });

    // Cancelled once: a second request is refused without a charge.
    const again = await cancel(account.testKey, created.body.id);
    expect(again.status).toBe(400);
    expect(await balance(account.accountId)).toBe(100000 - 200);
  }, 90_000);
});
