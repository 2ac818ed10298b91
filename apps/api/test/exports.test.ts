import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal, parseTfd, verifySeal } from '@cfdi/cfdi';
import { getBalanceCentavos } from '@cfdi/services';
import { waitFor } from '@cfdi/testkit';
import { callTool, connectMcp } from './mcp-client';
import { idempotencyKey, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', '/v1/invoices', { key, body, headers: { 'idempotency-key': ik } });
const stampedXml = async (id: string) =>
  (
    (await stack.api.orm.em.fork().execute('select stamped_xml from documents where id = ?', [id])) as {
      stamped_xml: string;
    }[]
  )[0]!.stamped_xml;
const eventTypes = async (accountId: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute('select type from events where account_id = ? order by id', [accountId])) as { type: string }[]
  ).map((e) => e.type);

const SAT = path.join(defaultSatDir(), 'xml');
function satChecks(xml: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-export-')), 'doc.xml');
  fs.writeFileSync(file, xml);
  execFileSync('xmllint', ['--noout', '--schema', path.join(SAT, 'cfdi40-bundle.xsd'), file], {
    stdio: 'pipe',
  });
  return execFileSync(
    'xsltproc',
    [path.join(SAT, 'www.sat.gob.mx/sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt'), file],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

async function pdfText(url: string): Promise<string> {
  const res = await fetch(stack.api.url + new URL(url).pathname + new URL(url).search);
  expect(res.headers.get('content-type')).toMatch(/application\/pdf/);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-export-pdf-')), 'doc.pdf');
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
}

/** An export of two goods to a US buyer, invoiced in USD at 17.25 MXN: IVA 0 %, TipoCambioUSD = TipoCambio. */
export function exportBody(merchantId: string, overrides: Record<string, unknown> = {}) {
  return {
    merchantId,
    formaPago: '03',
    usoCfdi: 'S01',
    receiver: {
      rfc: 'XEXX010101000',
      name: 'ACME TRADING',
      zip: '42501',
      regimenFiscal: '616',
      residenciaFiscal: 'USA',
      numRegIdTrib: '121585958',
    },
    moneda: 'USD',
    tipoCambio: 17.25,
    exportacion: '02',
    pricesIncludeTax: false,
    items: [
      {
        productCode: '43211503',
        unitCode: 'H87',
        description: 'Computadora portátil',
        quantity: 10,
        unitPrice: 812.5,
        noIdentificacion: 'LAP-14',
        ivaRate: 0,
      },
      {
        productCode: '43211503',
        unitCode: 'H87',
        description: 'Base para computadora',
        quantity: 4,
        unitPrice: 19.99,
        noIdentificacion: 'DOCK-2',
        ivaRate: 0,
      },
    ],
    comercioExterior: {
      incoterm: 'FOB',
      numCertificadoOrigen: 'CO-2026-00123',
      emisor: {
        domicilio: {
          calle: 'Av. Juárez',
          numeroExterior: '100',
          municipio: '048',
          estado: 'HID',
          codigoPostal: '42501',
        },
      },
      receptor: {
        domicilio: {
          calle: 'Main St',
          numeroExterior: '5',
          estado: 'TX',
          pais: 'USA',
          codigoPostal: '78501',
        },
      },
      mercancias: [
        {
          noIdentificacion: 'LAP-14',
          fraccionArancelaria: '8471300101',
          cantidadAduana: 10,
          unidadAduana: '06',
          valorUnitarioAduana: 812.5,
        },
        {
          noIdentificacion: 'DOCK-2',
          fraccionArancelaria: '8471300199',
          cantidadAduana: 4,
          unidadAduana: '06',
          valorUnitarioAduana: 19.99,
          valorDolares: 79.96,
        },
      ],
    },
    ...overrides,
  };
}

describe('exports (Comercio Exterior 2.0) and foreign-currency invoices', () => {
  it('stamps an export in USD: 201 in USD, the cce20 complement in the XML and the SAT cadena, seal valid, one timbre, PDF with the export data, invoice.stamped', async () => {
    const account = await stampingAccount(stack);
    const before = await getBalanceCentavos(stack.api.orm.em.fork(), {
      accountId: account.accountId,
      livemode: false,
    });
    const res = await post(account.testKey, exportBody(account.merchantId));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'invoice',
      status: 'stamped',
      currency: 'USD',
      subtotal: 8204.96,
      total: 8204.96,
      receiver: { rfc: 'XEXX010101000', residenciaFiscal: 'USA', numRegIdTrib: '121585958' },
      tipoCambio: 17.25,
      exportacion: '02',
      comercioExterior: {
        incoterm: 'FOB',
        numCertificadoOrigen: 'CO-2026-00123',
        tipoCambioUSD: 17.25,
        totalUSD: 8204.96,
      },
    });
    const xml = await stampedXml(res.body.id);
    expect(parseTfd(xml)?.uuid).toBe(res.body.uuid);
    expect(verifySeal(xml).valid).toBe(true);
    expect(xml).toMatch(
      / Moneda="USD" TipoCambio="17.25" Total="8204.96" TipoDeComprobante="I" Exportacion="02"/,
    );
    expect(xml).toContain('ResidenciaFiscal="USA" NumRegIdTrib="121585958"');
    expect(xml).toContain(
      '<cce20:ComercioExterior Version="2.0" ClaveDePedimento="A1" CertificadoOrigen="1" NumCertificadoOrigen="CO-2026-00123" Incoterm="FOB" TipoCambioUSD="17.25" TotalUSD="8204.96">',
    );
    expect(xml).toContain('ValorUnitarioAduana="812.5" ValorDolares="8125.00"');
    // The SAT's XSD accepts it and its XSLT gives our cadena, complement included.
    const cadena = satChecks(xml);
    expect(cadenaOriginal(xml)).toBe(cadena);
    expect(cadena).toContain('|2.0|A1|1|CO-2026-00123|FOB|17.25|8204.96|');
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(before - 100);
    expect(await eventTypes(account.accountId)).toEqual(['invoice.stamped']);
    const text = await pdfText(res.body.files.pdfUrl);
    expect(text).toContain('Complemento de comercio exterior 2.0');
    expect(text).toContain('Total USD: 8204.96');
    expect(text).toContain('Mercancía LAP-14');
    expect(text).toContain('Residencia fiscal: USA');
  }, 90_000);

  it('stamps a non-export invoice in EUR and one in JPY: totals and taxes in that currency, rounded to its c_Moneda decimals', async () => {
    const account = await stampingAccount(stack);
    const item = {
      productCode: '43211503',
      unitCode: 'H87',
      description: 'Licencia',
      quantity: 3,
      unitPrice: 333.33,
    };
    const domestic = { merchantId: account.merchantId, formaPago: '03', usoCfdi: 'G03', receiver: RECEIVER };
    const eur = await post(account.testKey, {
      ...domestic,
      moneda: 'EUR',
      tipoCambio: 19.123456,
      pricesIncludeTax: false,
      items: [item],
    });
    expect(eur.status).toBe(201);
    expect(eur.body).toMatchObject({ currency: 'EUR', subtotal: 999.99, total: 1159.99 });
    const eurXml = await stampedXml(eur.body.id);
    expect(eurXml).toMatch(
      / Moneda="EUR" TipoCambio="19.123456" Total="1159.99" TipoDeComprobante="I" Exportacion="01"/,
    );
    expect(eurXml).not.toContain('cce20');
    expect(cadenaOriginal(eurXml)).toBe(satChecks(eurXml));

    const jpy = await post(account.testKey, {
      ...domestic,
      moneda: 'JPY',
      tipoCambio: 0.1145,
      pricesIncludeTax: false,
      items: [{ ...item, unitPrice: 1999 }],
    });
    expect(jpy.status).toBe(201);
    const jpyXml = await stampedXml(jpy.body.id);
    // 3 × 1999 = 5997 JPY, IVA 959.52 → 960: no decimals anywhere at document level.
    expect(jpyXml).toMatch(/ SubTotal="5997" Moneda="JPY" TipoCambio="0.1145" Total="6957" /);
    expect(jpyXml).toContain('TotalImpuestosTrasladados="960"');
    expect(cadenaOriginal(jpyXml)).toBe(satChecks(jpyXml));
    expect(jpy.body).toMatchObject({ currency: 'JPY', total: 6957 });
  }, 90_000);

  it('an export is the invoice kind: another account gets 404, the same idempotency key replays the same document and one timbre', async () => {
    const account = await stampingAccount(stack);
    const other = await stampingAccount(stack);
    const ik = idempotencyKey();
    const first = await post(account.testKey, exportBody(account.merchantId), ik);
    expect(first.status).toBe(201);
    const again = await post(account.testKey, exportBody(account.merchantId), ik);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000 - 100);
    const foreign = await stack.api.request('GET', `/v1/invoices/${first.body.id}`, { key: other.testKey });
    expect(foreign.status).toBe(404);
  }, 90_000);
});

describe('an export through its other faces', () => {
  it("is cancelled without the receiver's acceptance (a foreign resident, RMF 2.7.1.35 VIII): cancelled, invoice.cancelled, one more timbre", async () => {
    const account = await stampingAccount(stack);
    const created = await post(account.testKey, exportBody(account.merchantId));
    expect(created.status).toBe(201);
    const res = await stack.api.request('POST', `/v1/invoices/${created.body.id}/cancel`, {
      key: account.testKey,
      body: { motivo: '02' },
      headers: { 'idempotency-key': idempotencyKey() },
    });
    expect([200, 202]).toContain(res.status);
    const cancelled = await waitFor(
      async () => {
        const current = (
          await stack.api.request('GET', `/v1/invoices/${created.body.id}`, { key: account.testKey })
        ).body;
        return current.status === 'cancelled' ? current : undefined;
      },
      { what: 'the export to be cancelled' },
    );
    expect(cancelled).toMatchObject({ currency: 'USD', total: 8204.96 });
    expect(await eventTypes(account.accountId)).toEqual(['invoice.stamped', 'invoice.cancelled']);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000 - 200);
  }, 90_000);

  it('is created by an agent through the MCP create_invoice tool with the same fields, and refused there with the same paths', async () => {
    const account = await stampingAccount(stack);
    const client = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
    try {
      const created = await callTool(client, 'create_invoice', {
        ...exportBody(account.merchantId),
        idempotency_key: idempotencyKey(),
      });
      expect(created.result.isError).toBeFalsy();
      expect(created.data).toMatchObject({ status: 'stamped', currency: 'USD', total: 8204.96 });
      expect(await stampedXml(created.data.id)).toContain('<cce20:ComercioExterior ');
      const body = exportBody(account.merchantId);
      const refused = await callTool(client, 'create_invoice', {
        ...body,
        comercioExterior: { ...body.comercioExterior, incoterm: 'XYZ' },
        idempotency_key: idempotencyKey(),
      });
      expect(refused.result.isError).toBe(true);
      expect(refused.problem.errors.map((e: { path: string }) => e.path)).toContain(
        '/comercioExterior/incoterm',
      );
    } finally {
      await client.close();
    }
  }, 90_000);
});

type Body = ReturnType<typeof exportBody> & Record<string, unknown>;
const cce = (b: Body) =>
  b.comercioExterior as Record<string, unknown> & { mercancias: Array<Record<string, unknown>> };

/** Each rule a server can check, refused with a 400 problem+json naming the field: [rule, change, path]. */
const RULES: Array<[string, (b: Body) => void, string]> = [
  [
    'tipoCambio required with a foreign currency (CFDI40115)',
    (b) => delete (b as Record<string, unknown>).tipoCambio,
    '/tipoCambio',
  ],
  [
    'tipoCambio absent or 1 with MXN (CFDI40114)',
    (b) => Object.assign(b, { moneda: 'MXN', tipoCambio: 17 }),
    '/tipoCambio',
  ],
  [
    'tipoCambio up to 6 decimals (CFDI40117)',
    (b) => Object.assign(b, { tipoCambio: 17.1234567 }),
    '/tipoCambio',
  ],
  ['moneda a c_Moneda key (CFDI40113)', (b) => Object.assign(b, { moneda: 'ZZZ' }), '/moneda'],
  ['XXX is not an invoice currency (CFDI40113)', (b) => Object.assign(b, { moneda: 'XXX' }), '/moneda'],
  [
    'exportacion 02 requires the complement (CFDI40122)',
    (b) => delete (b as Record<string, unknown>).comercioExterior,
    '/comercioExterior',
  ],
  [
    'the complement requires exportacion 02 (CFDI40222)',
    (b) => Object.assign(b, { exportacion: '01' }),
    '/exportacion',
  ],
  [
    'an export goes to the foreign RFC XEXX010101000',
    (b) => Object.assign(b, { receiver: RECEIVER }),
    '/receiver/rfc',
  ],
  [
    'residenciaFiscal required for the foreign receiver (CFDI40153)',
    (b) => delete (b.receiver as Record<string, unknown>).residenciaFiscal,
    '/receiver/residenciaFiscal',
  ],
  [
    'numRegIdTrib required for the foreign receiver of an export',
    (b) => delete (b.receiver as Record<string, unknown>).numRegIdTrib,
    '/receiver/numRegIdTrib',
  ],
  [
    'residenciaFiscal is not MEX (CFDI40152)',
    (b) => Object.assign(b.receiver, { residenciaFiscal: 'MEX' }),
    '/receiver/residenciaFiscal',
  ],
  [
    'numRegIdTrib follows the country pattern (CFDI40156)',
    (b) => Object.assign(b.receiver, { numRegIdTrib: '12345-ABC' }),
    '/receiver/numRegIdTrib',
  ],
  [
    'residenciaFiscal only for XEXX010101000 (CFDI40151)',
    (b) =>
      Object.assign(b, {
        exportacion: '01',
        comercioExterior: undefined,
        receiver: { ...RECEIVER, residenciaFiscal: 'USA' },
      }),
    '/receiver/residenciaFiscal',
  ],
  [
    'TipoCambioUSD equals TipoCambio when the invoice is in USD',
    (b) => Object.assign(cce(b), { tipoCambioUSD: 17.3 }),
    '/comercioExterior/tipoCambioUSD',
  ],
  [
    'TipoCambioUSD required when the invoice is not in USD',
    (b) => Object.assign(b, { moneda: 'EUR', tipoCambio: 18.9 }),
    '/comercioExterior/tipoCambioUSD',
  ],
  [
    'ValorDolares = CantidadAduana × ValorUnitarioAduana rounded',
    (b) => Object.assign(cce(b).mercancias[1]!, { valorDolares: 79.95 }),
    '/comercioExterior/mercancias/1/valorDolares',
  ],
  [
    'TotalUSD = Σ ValorDolares',
    (b) => Object.assign(cce(b), { totalUSD: 8204.95 }),
    '/comercioExterior/totalUSD',
  ],
  [
    'goods worth their concepts in USD',
    (b) => Object.assign(cce(b).mercancias[0]!, { valorUnitarioAduana: 800 }),
    '/comercioExterior/mercancias/0/valorDolares',
  ],
  [
    'each concept is a good of the complement',
    (b) => Object.assign(b.items[1]!, { noIdentificacion: 'OTHER' }),
    '/items/1/noIdentificacion',
  ],
  [
    'each good is a concept',
    (b) =>
      cce(b).mercancias.push({
        noIdentificacion: 'GHOST',
        fraccionArancelaria: '8471300101',
        cantidadAduana: 1,
        unidadAduana: '06',
        valorUnitarioAduana: 1,
      }),
    '/comercioExterior/mercancias/2/noIdentificacion',
  ],
  [
    'Incoterm a c_INCOTERM key',
    (b) => Object.assign(cce(b), { incoterm: 'XYZ' }),
    '/comercioExterior/incoterm',
  ],
  [
    'FraccionArancelaria a c_FraccionArancelaria key',
    (b) => Object.assign(cce(b).mercancias[0]!, { fraccionArancelaria: '8471300102' }),
    '/comercioExterior/mercancias/0/fraccionArancelaria',
  ],
  [
    'UnidadAduana a c_UnidadAduana key',
    (b) => Object.assign(cce(b).mercancias[0]!, { unidadAduana: '42' }),
    '/comercioExterior/mercancias/0/unidadAduana',
  ],
  [
    'CantidadAduana up to 3 decimals',
    (b) => Object.assign(cce(b).mercancias[0]!, { cantidadAduana: 10.0001 }),
    '/comercioExterior/mercancias/0/cantidadAduana',
  ],
  [
    "the receptor's country a c_Pais key",
    (b) => Object.assign((cce(b).receptor as { domicilio: object }).domicilio, { pais: 'QQQ' }),
    '/comercioExterior/receptor/domicilio/pais',
  ],
  [
    "the emisor's state a c_Estado key",
    (b) => Object.assign((cce(b).emisor as { domicilio: object }).domicilio, { estado: 'Hidalgo' }),
    '/comercioExterior/emisor/domicilio/estado',
  ],
  [
    'no NumeroPedimento on an export (CFDI40195)',
    (b) => Object.assign(b.items[0]!, { pedimentos: ['23 47 3807 3000123'] }),
    '/items/0/pedimentos',
  ],
  [
    'no shipping line outside the goods',
    (b) => Object.assign(b, { shipping: { amount: 10, ivaRate: 0 } }),
    '/shipping',
  ],
];

describe('the Comercio Exterior and currency rules, each a 400 with its path', () => {
  let account: Awaited<ReturnType<typeof stampingAccount>>;
  beforeAll(async () => {
    account = await stampingAccount(stack);
  }, 60_000);

  it.each(RULES)('%s', async (_rule, change, pointer) => {
    const body = structuredClone(exportBody(account.merchantId)) as Body;
    change(body);
    const res = await post(account.testKey, JSON.parse(JSON.stringify(body)));
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((res.body.errors as Array<{ path: string }>).map((e) => e.path)).toContain(pointer);
  });
});
