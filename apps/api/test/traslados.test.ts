import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal, parseTfd, verifySeal } from '@cfdi/cfdi';
import { waitFor } from '@cfdi/testkit';
import { verifyWebhook } from '@cfdi/webhook-verify';
import { documentKindSuite } from './kind-suite';
import { keyForAnotherMerchant } from './restricted-key';
import { idempotencyKey, stampingAccount, type StackHarness } from './stack';
import type { Receiver } from './webhook-receiver';

// Traslado CFDIs (type T) through /v1/traslados on the real stack: the document-kind registry stamps and cancels them
// as the other CFDI, with the invoices' ledger, idempotency, webhooks, files (XML, PDF, ZIP) and isolation; the Carta
// Porte's IdCCP is fixed when the request is validated.

let stack: StackHarness;
let receiver: Receiver;
const suite = documentKindSuite(
  '/v1/traslados',
  {
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
    input: { cartaPorte?: { idCCP: string } };
  }>(id);

/** The merchant's forklifts moved from its Pachuca plant to its Villahermosa warehouse, by its own truck. */
function trasladoBody(merchantId: string, overrides: Record<string, unknown> = {}) {
  return {
    merchantId,
    items: [
      {
        productCode: '24101500',
        unitCode: 'H87',
        unit: 'Pieza',
        description: 'Montacargas eléctrico',
        quantity: 2,
        noIdentificacion: 'MC-2000',
      },
      { productCode: '12352104', unitCode: 'LTR', description: 'Acetona', quantity: 10 },
    ],
    cartaPorte: {
      ubicaciones: [
        {
          tipo: 'Origen',
          rfc: 'EKU9003173C9',
          nombre: 'ESCUELA KEMPER URGATE',
          fechaHora: '2026-11-21T08:00:00',
          domicilio: { estado: 'HID', codigoPostal: '42501', municipio: '048', calle: 'Av. Juárez' },
        },
        {
          tipo: 'Destino',
          rfc: 'EKU9003173C9',
          fechaHora: '2026-11-21T18:00:00',
          distanciaRecorrida: 450.5,
          domicilio: { estado: 'VER', codigoPostal: '91000' },
        },
        {
          tipo: 'Destino',
          rfc: 'EKU9003173C9',
          nombre: 'ALMACEN VILLAHERMOSA',
          fechaHora: '2026-11-22T09:00:00',
          distanciaRecorrida: 370.25,
          domicilio: { estado: 'TAB', codigoPostal: '86991' },
        },
      ],
      mercancias: [
        {
          bienesTransp: '24101500',
          descripcion: 'Montacargas eléctrico',
          cantidad: 2,
          claveUnidad: 'H87',
          pesoEnKg: 3500.25,
        },
        {
          bienesTransp: '12352104',
          descripcion: 'Acetona',
          cantidad: 10,
          claveUnidad: 'LTR',
          pesoEnKg: 7.9,
          materialPeligroso: true,
          cveMaterialPeligroso: '1090',
          embalaje: '1A1',
        },
      ],
      autotransporte: {
        permSCT: 'TPAF01',
        numPermisoSCT: 'SCT-0001',
        configVehicular: 'T3S2',
        pesoBrutoVehicular: 41.5,
        placaVM: 'ABC1234',
        anioModeloVM: 2022,
        seguros: {
          aseguraRespCivil: 'SEGUROS SA',
          polizaRespCivil: 'POL-12345',
          aseguraMedAmbiente: 'ECO SEGUROS',
          polizaMedAmbiente: 'MA-7781',
        },
        remolques: [{ subTipoRem: 'CTR004', placa: 'XYZ987' }],
      },
      figuras: [
        { tipoFigura: '01', rfc: 'FUNK671228PH6', numLicencia: 'LIC123456', nombre: 'KARLA FUENTE NOLASCO' },
      ],
    },
    ...overrides,
  };
}

const SAT = path.join(defaultSatDir(), 'xml');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-traslados-'));
let fileSeq = 0;
const tmp = (name: string, content: string | Buffer) => {
  const file = path.join(workDir, `${++fileSeq}-${name}`);
  fs.writeFileSync(file, content);
  return file;
};

/** The SAT's XSD bundle (CFDI 4.0, CartaPorte31.xsd and catCartaPorte.xsd, the TFD) and the cadena by its XSLT. */
function satCadena(xml: string): string {
  const file = tmp('doc.xml', xml);
  execFileSync('xmllint', ['--noout', '--schema', path.join(SAT, 'cfdi40-bundle.xsd'), file], {
    stdio: 'pipe',
  });
  return execFileSync(
    'xsltproc',
    [path.join(SAT, 'www.sat.gob.mx/sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt'), file],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

/** The Sello checked by openssl against the certificate the CFDI carries, over the cadena xsltproc produced. */
function opensslVerifies(xml: string, cadena: string): boolean {
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]+)"`).exec(xml)![1]!;
  const pem = `-----BEGIN CERTIFICATE-----\n${attr('Certificado')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
  const pub = tmp(
    'pub.pem',
    execFileSync('openssl', ['x509', '-pubkey', '-noout', '-in', tmp('cert.pem', pem)]),
  );
  try {
    execFileSync(
      'openssl',
      [
        'dgst',
        '-sha256',
        '-verify',
        pub,
        '-signature',
        tmp('sello.sig', Buffer.from(attr('Sello'), 'base64')),
        tmp('cadena.txt', cadena),
      ],
      { stdio: 'pipe' },
    );
    return true;
  } catch {
    return false;
  }
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
      const current = (await get(account.testKey, `/v1/traslados/${id}`)).body;
      return current.status === status ? current : undefined;
    },
    { timeoutMs: 60_000, what: `${id} to be ${status}` },
  );
}

const paths = (body: { errors: { path: string }[] }) => body.errors.map((e) => e.path).sort();

describe('POST /v1/traslados', () => {
  it('stamps a traslado with its Carta Porte: 201, SAT XSD, xsltproc cadena and openssl seal, IdCCP the stored one, one timbre, XML/PDF/ZIP, traslado.stamped delivered', async () => {
    const account = await stampingAccount(stack);
    const hookPath = `/hooks/tra-${Date.now()}`;
    const hook = await endpoint(account.testKey, hookPath, ['traslado.stamped']);

    const res = await post(account.testKey, trasladoBody(account.merchantId));
    expect(res.status).toBe(201);
    const { stamped_xml: xml, input } = await row(res.body.id);
    const idCCP = input.cartaPorte!.idCCP;
    expect(res.body).toMatchObject({
      object: 'traslado',
      livemode: false,
      status: 'stamped',
      serie: 'TR',
      folio: 1,
      folioText: null,
      merchantId: account.merchantId,
      receiver: { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE', zip: '42501', regimenFiscal: '601' },
      items: [
        {
          productCode: '24101500',
          unitCode: 'H87',
          unit: 'Pieza',
          description: 'Montacargas eléctrico',
          quantity: 2,
          noIdentificacion: 'MC-2000',
        },
        {
          productCode: '12352104',
          unitCode: 'LTR',
          unit: null,
          description: 'Acetona',
          quantity: 10,
          noIdentificacion: null,
        },
      ],
      cartaPorte: {
        idCCP,
        totalDistRec: 820.75,
        pesoBrutoTotal: 3508.15,
        numTotalMercancias: 2,
        origin: {
          idUbicacion: 'OR000001',
          rfc: 'EKU9003173C9',
          nombre: 'ESCUELA KEMPER URGATE',
          fechaHora: '2026-11-21T08:00:00',
          estado: 'HID',
          codigoPostal: '42501',
          distanciaRecorrida: null,
        },
        destination: {
          idUbicacion: 'DE000002',
          nombre: 'ALMACEN VILLAHERMOSA',
          fechaHora: '2026-11-22T09:00:00',
          estado: 'TAB',
          codigoPostal: '86991',
          distanciaRecorrida: 370.25,
        },
        stops: 3,
      },
      cancellation: null,
      needsReconciliation: false,
      failure: null,
    });
    expect(res.body.id).toMatch(/^tra_/);
    expect(res.body.uuid).toMatch(/^[0-9A-F-]{36}$/);
    expect(res.body.fecha).toMatch(/^2026-11-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(idCCP).toMatch(/^CCC[0-9a-f]{5}-/);

    // The CFDI: type T, no price, payment or taxes, issued to the merchant itself, with the Carta Porte.
    expect(parseTfd(xml)?.uuid).toBe(res.body.uuid);
    expect(xml).toMatch(/TipoDeComprobante="T"/);
    expect(xml).toMatch(/ Serie="TR" Folio="1"/);
    expect(xml).toMatch(/SubTotal="0" Moneda="XXX" Total="0"/);
    expect(xml).not.toMatch(/FormaPago=|MetodoPago=|<cfdi:Impuestos/);
    expect(xml).toMatch(/<cfdi:Receptor Rfc="EKU9003173C9" [^>]*UsoCFDI="S01"/);
    expect(xml).toContain(`IdCCP="${idCCP}" TranspInternac="No" TotalDistRec="820.75"`);
    expect((await row(res.body.id)).sealed_xml).toContain(`IdCCP="${idCCP}"`);
    const cadena = satCadena(xml);
    expect(cadenaOriginal(xml)).toBe(cadena);
    expect(cadena).toContain(`|3.1|${idCCP}|No|820.75|`);
    expect(verifySeal(xml).valid).toBe(true);
    expect(opensslVerifies(xml, cadena)).toBe(true);
    expect(opensslVerifies(xml, cadena.replace('|820.75|', '|820.76|'))).toBe(false);

    // Files: the XML as stamped, its PDF and the ZIP of both.
    expect(res.body.files.status).toBe('ready');
    const xmlFile = await download(res.body.files.xmlUrl);
    expect(xmlFile.status).toBe(200);
    expect(await xmlFile.text()).toBe(xml);
    const pdf = await download(res.body.files.pdfUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
    const printed = execFileSync(
      'pdftotext',
      ['-layout', tmp('traslado.pdf', Buffer.from(await pdf.arrayBuffer())), '-'],
      { encoding: 'utf8' },
    ).replace(/\s+/g, ' ');
    for (const needle of [
      'Traslado TR-1',
      res.body.uuid,
      'Mercancías trasladadas',
      `IdCCP: ${idCCP}`,
      'Distancia total recorrida: 820.75 km',
    ])
      expect(printed).toContain(needle);
    expect(printed).not.toContain('Valor unit.');
    const zip = await download(res.body.files.zipUrl);
    expect(zip.status).toBe(200);
    expect(
      Buffer.from(await zip.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect(await ledger(account.accountId)).toEqual([
      { type: 'consume', delta_centavos: '-100', reference_type: 'traslado', reference_id: res.body.id },
    ]);
    expect(await eventTypes(account.accountId)).toEqual(['traslado.stamped']);
    const [delivery] = await receiver.waitFor(hookPath, 1);
    const event = verifyWebhook<any>(
      delivery!.rawBody,
      delivery!.headers['cfdi-signature'] as string,
      hook.secret,
    );
    expect(event).toMatchObject({
      type: 'traslado.stamped',
      data: { object: { id: res.body.id, object: 'traslado', uuid: res.body.uuid, cartaPorte: { idCCP } } },
    });

    const again = await get(account.testKey, `/v1/traslados/${res.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...res.body, files: expect.any(Object) });
  }, 90_000);

  it('stamps a traslado without Carta Porte (goods that do not travel a federal road), with the display folio sent', async () => {
    const account = await stampingAccount(stack);
    const { cartaPorte: _none, ...body } = trasladoBody(account.merchantId, { folio: 'MOV-7' });
    const res = await post(account.testKey, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'stamped', folioText: 'MOV-7', cartaPorte: null });
    const { stamped_xml: xml } = await row(res.body.id);
    expect(xml).toMatch(/ Serie="TR" Folio="MOV-7"/);
    expect(xml).not.toContain('cartaporte31');
    expect(cadenaOriginal(xml)).toBe(satCadena(xml));
  }, 60_000);

  it('refuses each traslado rule with a 400 and its path, before any charge', async () => {
    const account = await stampingAccount(stack);
    const refused = async (overrides: Record<string, unknown>) => {
      const res = await post(account.testKey, trasladoBody(account.merchantId, overrides));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      return res.body;
    };
    // A traslado has no payment, currency or receiver: FormaPago and MetodoPago are refused (CFDI40103/40125).
    expect(paths(await refused({ formaPago: '03', metodoPago: 'PUE', moneda: 'MXN' }))).toEqual([
      '/formaPago',
      '/metodoPago',
      '/moneda',
    ]);
    expect(paths(await refused({ receiver: { rfc: 'URE180429TM6' } }))).toEqual(['/receiver']);
    // No price: ValorUnitario 0 on every good.
    const priced = await refused({
      items: [
        { productCode: '24101500', unitCode: 'H87', description: 'Montacargas', quantity: 1, unitPrice: 5 },
      ],
    });
    expect(priced.errors).toEqual([
      { path: '/items/0/unitPrice', message: expect.stringContaining('without a price') },
    ]);
    // Catalog keys of the goods.
    expect(
      paths(
        await refused({
          items: [{ productCode: '99999999', unitCode: 'ZZZ', description: 'X', quantity: 1 }],
        }),
      ),
    ).toEqual(['/items/0/productCode', '/items/0/unitCode']);
    // Carta Porte rules: TotalDistRec must be the sum of the distances, a hazardous good needs its key.
    const base = trasladoBody(account.merchantId).cartaPorte;
    const cp = await refused({
      cartaPorte: {
        ...base,
        totalDistRec: 100,
        mercancias: [{ ...base.mercancias[1], cveMaterialPeligroso: undefined }],
      },
    });
    expect(paths(cp)).toEqual(['/cartaPorte/mercancias/0/cveMaterialPeligroso', '/cartaPorte/totalDistRec']);
    // The driver's licence.
    const driver = await refused({
      cartaPorte: { ...base, figuras: [{ tipoFigura: '01', rfc: 'FUNK671228PH6', nombre: 'KARLA' }] },
    });
    expect(paths(driver)).toEqual(['/cartaPorte/figuras/0/numLicencia']);
    // No goods at all: the schema's check, with its path.
    expect(paths(await refused({ items: [] }))).toEqual(['/items']);

    expect(await balance(account.accountId)).toBe(100000);
    expect((await get(account.testKey, '/v1/traslados')).body.data).toEqual([]);
  }, 60_000);

  it('refunds the timbre when the PAC refuses it: 422 sat_rejected, traslado.stamp_failed', async () => {
    const account = await stampingAccount(stack);
    await injectFault('stamp', 'reject', { code: '302', message: 'Sello mal formado o inválido' });
    const res = await post(account.testKey, trasladoBody(account.merchantId));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'sat_rejected', satCode: '302' });
    expect(await balance(account.accountId)).toBe(100000);
    expect(
      (await ledger(account.accountId)).map((e) => [e.type, e.delta_centavos, e.reference_type]),
    ).toEqual([
      ['consume', '-100', 'traslado'],
      ['refund', '100', 'traslado'],
    ]);
    const [failed] = (await get(account.testKey, '/v1/traslados?status=stamp_failed')).body.data;
    expect(failed).toMatchObject({ status: 'stamp_failed', failure: { code: '302' }, uuid: null });
    expect(await eventTypes(account.accountId)).toEqual(['traslado.stamp_failed']);
  }, 60_000);

  it('a stamp the PAC first fails with a 500 is retried with the IdCCP stored at validation', async () => {
    const account = await stampingAccount(stack);
    await injectFault('stamp', 'http_500');
    const res = await post(account.testKey, trasladoBody(account.merchantId));
    expect(res.status).toBe(201);
    const { stamped_xml: xml, input } = await row(res.body.id);
    expect(xml).toContain(`IdCCP="${input.cartaPorte!.idCCP}"`);
    expect(res.body.cartaPorte.idCCP).toBe(input.cartaPorte!.idCCP);
    expect(await balance(account.accountId)).toBe(100000 - 100);
  }, 90_000);

  it('idempotency: the stored answer replayed with the same IdCCP, 422 for another body', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const first = await post(account.testKey, trasladoBody(account.merchantId), ik);
    expect(first.status).toBe(201);
    const replay = await post(account.testKey, trasladoBody(account.merchantId), ik);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toMatchObject({
      id: first.body.id,
      uuid: first.body.uuid,
      cartaPorte: { idCCP: first.body.cartaPorte.idCCP },
    });
    const reuse = await post(account.testKey, trasladoBody(account.merchantId, { folio: 'X1' }), ik);
    expect(reuse.status).toBe(422);
    expect(reuse.body.code).toBe('idempotency_key_reuse');
    expect(await balance(account.accountId)).toBe(100000 - 100);
    expect((await get(account.testKey, '/v1/traslados')).body.data).toHaveLength(1);
  }, 90_000);
});

describe('GET /v1/traslados', () => {
  it('lists newest first with filters and pages; not an invoice; other accounts and the live mode see none of them', async () => {
    const account = await stampingAccount(stack);
    const a = await post(account.testKey, trasladoBody(account.merchantId));
    const b = await post(account.testKey, trasladoBody(account.merchantId));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.folio).toBe(a.body.folio + 1);

    const ids = async (query: string) =>
      (await get(account.testKey, `/v1/traslados${query}`)).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([b.body.id, a.body.id]);
    expect(await ids(`?uuid=${a.body.uuid.toLowerCase()}`)).toEqual([a.body.id]);
    expect(await ids('?status=stamped&limit=1')).toEqual([b.body.id]);
    expect(await ids(`?starting_after=${b.body.id}`)).toEqual([a.body.id]);
    expect(await ids(`?merchantId=${account.merchantId}`)).toEqual([b.body.id, a.body.id]);
    expect(await ids('?status=cancelled')).toEqual([]);
    // Traslados are their own resource: not an invoice, not in the invoices' list.
    expect((await get(account.testKey, `/v1/invoices/${a.body.id}`)).status).toBe(404);
    expect((await get(account.testKey, '/v1/invoices')).body.data).toEqual([]);

    const other = await stampingAccount(stack);
    for (const key of [other.testKey, account.liveKey]) {
      expect((await get(key, `/v1/traslados/${a.body.id}`)).status).toBe(404);
      expect((await get(key, '/v1/traslados')).body.data).toEqual([]);
      expect((await get(key, `/v1/traslados?uuid=${a.body.uuid}`)).body.data).toEqual([]);
      expect((await cancel(key, a.body.id)).status).toBe(404);
    }
  }, 90_000);

  it("a key restricted to another merchant gets 403 on this merchant's traslados and lists none of them", async () => {
    const account = await stampingAccount(stack);
    const created = await post(account.testKey, trasladoBody(account.merchantId));
    expect(created.status).toBe(201);
    const restricted = await keyForAnotherMerchant(stack.api, account);
    const before = await balance(account.accountId);

    const refusals = [
      await post(restricted, trasladoBody(account.merchantId)),
      await get(restricted, `/v1/traslados/${created.body.id}`),
      await cancel(restricted, created.body.id),
    ];
    for (const res of refusals) {
      expect({ status: res.status, type: res.headers.get('content-type'), code: res.body.code }).toEqual({
        status: 403,
        type: expect.stringMatching(/^application\/problem\+json/),
        code: 'forbidden',
      });
      expect(res.body.detail).toContain(account.merchantId);
    }
    for (const query of ['', `?merchantId=${account.merchantId}`, `?uuid=${created.body.uuid}`]) {
      const list = await get(restricted, `/v1/traslados${query}`);
      expect([query, list.status, list.body.data]).toEqual([query, 200, []]);
    }
    // Nothing was stamped, reserved or cancelled on its behalf.
    expect(await balance(account.accountId)).toBe(before);
    expect((await get(account.testKey, `/v1/traslados/${created.body.id}`)).body.status).toBe('stamped');
  }, 60_000);
});

describe('POST /v1/traslados/{id}/cancel', () => {
  it('cancels without acceptance: 202, cancelled, one timbre, the acuse, traslado.cancelled delivered', async () => {
    const account = await stampingAccount(stack);
    const hookPath = `/hooks/tra-cancel-${Date.now()}`;
    const hook = await endpoint(account.testKey, hookPath, ['traslado.cancelled']);
    const created = await post(account.testKey, trasladoBody(account.merchantId));
    expect(created.status).toBe(201);

    const res = await cancel(account.testKey, created.body.id);
    expect(res.status).toBe(202);
    expect(res.body.object).toBe('traslado');
    const done = await statusOf(account, created.body.id, 'cancelled');
    expect(done.cancellation).toMatchObject({
      motivo: '02',
      status: 'accepted',
      acuse: { uuid: created.body.uuid, xmlUrl: expect.any(String) },
    });
    expect((await download(done.cancellation.acuse.xmlUrl)).status).toBe(200);
    expect(await balance(account.accountId)).toBe(100000 - 200);
    expect((await ledger(account.accountId)).map((e) => [e.type, e.reference_type])).toEqual([
      ['consume', 'traslado'],
      ['consume', 'cancellation'],
    ]);
    expect(await eventTypes(account.accountId)).toEqual(['traslado.stamped', 'traslado.cancelled']);
    const [delivery] = await receiver.waitFor(hookPath, 1);
    const event = verifyWebhook<any>(
      delivery!.rawBody,
      delivery!.headers['cfdi-signature'] as string,
      hook.secret,
    );
    expect(event).toMatchObject({
      type: 'traslado.cancelled',
      data: { object: { id: created.body.id, status: 'cancelled' } },
    });
    const again = await cancel(account.testKey, created.body.id);
    expect(again.status).toBe(400);
    expect(await balance(account.accountId)).toBe(100000 - 200);
  }, 90_000);
});
