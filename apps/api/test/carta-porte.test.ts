import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { cadenaOriginal, parseTfd, verifySeal } from '@cfdi/cfdi';
import { getBalanceCentavos } from '@cfdi/services';
import { callTool, connectMcp } from './mcp-client';
import { idempotencyKey, RECEIVER, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => stack?.close(), 60_000);

const post = (key: string, body: unknown, ik = idempotencyKey()) =>
  stack.api.request('POST', '/v1/invoices', { key, body, headers: { 'idempotency-key': ik } });
const stored = async (id: string) =>
  (
    (await stack.api.orm.em
      .fork()
      .execute('select stamped_xml, input from documents where id = ?', [id])) as {
      stamped_xml: string;
      input: { cartaPorte?: { idCCP: string } };
    }[]
  )[0]!;

const SAT = path.join(defaultSatDir(), 'xml');
/** The SAT's XSD bundle (CartaPorte31.xsd and catCartaPorte.xsd included) and its cadena XSLT. */
function satChecks(xml: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-carta-porte-')), 'doc.xml');
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

/** A carrier's freight invoice: one origin, two destinations, a hazardous good, a tractor with its trailer. */
function freightBody(merchantId: string) {
  return {
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver: RECEIVER,
    items: [{ productCode: '78101802', unitCode: 'E48', description: 'Flete', quantity: 1, unitPrice: 8500 }],
    cartaPorte: {
      ubicaciones: [
        {
          tipo: 'Origen',
          rfc: 'EKU9003173C9',
          fechaHora: '2026-11-21T08:00:00',
          domicilio: { estado: 'HID', codigoPostal: '42501', municipio: '048', calle: 'Av. Juárez' },
        },
        {
          tipo: 'Destino',
          rfc: 'URE180429TM6',
          fechaHora: '2026-11-21T18:00:00',
          distanciaRecorrida: 450.5,
          domicilio: { estado: 'TAB', codigoPostal: '86991' },
        },
        {
          tipo: 'Destino',
          rfc: 'URE180429TM6',
          fechaHora: '2026-11-22T09:00:00',
          distanciaRecorrida: 120.25,
          domicilio: { estado: 'CAM', codigoPostal: '24000' },
        },
      ],
      mercancias: [
        {
          bienesTransp: '24101500',
          descripcion: 'Montacargas',
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
        {
          tipoFigura: '01',
          rfc: 'FUNK671228PH6',
          numLicencia: 'LIC123456',
          nombre: 'KARLA FUENTE NOLASCO',
        },
      ],
    },
  };
}

describe('a freight invoice with Carta Porte 3.1', () => {
  it('is stamped with the complement and its computed totals; the SAT XSD accepts it and its XSLT gives our cadena; IdCCP is the stored one', async () => {
    const account = await stampingAccount(stack);
    const res = await post(account.testKey, freightBody(account.merchantId));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'invoice', status: 'stamped', total: 8500 });
    const { stamped_xml: xml, input } = await stored(res.body.id);
    expect(parseTfd(xml)?.uuid).toBe(res.body.uuid);
    expect(verifySeal(xml).valid).toBe(true);
    expect(xml).toContain('xmlns:cartaporte31="http://www.sat.gob.mx/CartaPorte31"');
    const idCCP = input.cartaPorte!.idCCP;
    expect(idCCP).toMatch(/^CCC[0-9a-f]{5}-/);
    expect(xml).toContain(
      `<cartaporte31:CartaPorte Version="3.1" IdCCP="${idCCP}" TranspInternac="No" TotalDistRec="570.75">`,
    );
    expect(xml).toMatch(
      /<cartaporte31:Mercancias PesoBrutoTotal="3508.15" UnidadPeso="KGM" NumTotalMercancias="2"/,
    );
    expect(xml).toContain('IDUbicacion="DE000002"');
    const cadena = satChecks(xml);
    expect(cadenaOriginal(xml)).toBe(cadena);
    expect(cadena).toContain(`|3.1|${idCCP}|No|570.75|`);
    // The Invoice resource shows the trip in brief, as stamped; an invoice without Carta Porte has no such field.
    const summary = {
      idCCP,
      totalDistRec: 570.75,
      pesoBrutoTotal: 3508.15,
      numTotalMercancias: 2,
      origin: {
        idUbicacion: 'OR000001',
        rfc: 'EKU9003173C9',
        nombre: null,
        fechaHora: '2026-11-21T08:00:00',
        estado: 'HID',
        codigoPostal: '42501',
        distanciaRecorrida: null,
      },
      destination: {
        idUbicacion: 'DE000002',
        rfc: 'URE180429TM6',
        nombre: null,
        fechaHora: '2026-11-22T09:00:00',
        estado: 'CAM',
        codigoPostal: '24000',
        distanciaRecorrida: 120.25,
      },
      stops: 3,
    };
    expect(res.body.cartaPorte).toEqual(summary);
    const read = await stack.api.request('GET', `/v1/invoices/${res.body.id}`, { key: account.testKey });
    expect(read.body.cartaPorte).toEqual(summary);
    const listed = await stack.api.request('GET', '/v1/invoices', { key: account.testKey });
    expect(listed.body.data[0].cartaPorte).toEqual(summary);
    const { cartaPorte: _none, ...plain } = freightBody(account.merchantId);
    const other = await post(account.testKey, plain);
    expect(other.status).toBe(201);
    expect(other.body).not.toHaveProperty('cartaPorte');
  }, 90_000);

  it('the same idempotency key replays the same document, one timbre, the same IdCCP', async () => {
    const account = await stampingAccount(stack);
    const ik = idempotencyKey();
    const first = await post(account.testKey, freightBody(account.merchantId), ik);
    expect(first.status).toBe(201);
    const again = await post(account.testKey, freightBody(account.merchantId), ik);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.uuid).toBe(first.body.uuid);
    const { stamped_xml: xml, input } = await stored(first.body.id);
    expect(xml).toContain(`IdCCP="${input.cartaPorte!.idCCP}"`);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000 - 100);
  }, 90_000);

  it('a stamp the PAC first refuses with a 500 is retried by the workflow with the same IdCCP, the one stored at validation', async () => {
    const account = await stampingAccount(stack);
    const fault = await fetch(`${stack.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'stamp', kind: 'http_500', count: 1, params: {} }),
    });
    expect(fault.status).toBeLessThan(300);
    try {
      const res = await post(account.testKey, freightBody(account.merchantId));
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('stamped');
      const { stamped_xml: xml, input } = await stored(res.body.id);
      expect(xml).toContain(`IdCCP="${input.cartaPorte!.idCCP}"`);
      const sealed = (
        (await stack.api.orm.em
          .fork()
          .execute('select sealed_xml from documents where id = ?', [res.body.id])) as {
          sealed_xml: string;
        }[]
      )[0]!.sealed_xml;
      expect(sealed).toContain(`IdCCP="${input.cartaPorte!.idCCP}"`);
    } finally {
      await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
  }, 90_000);

  it('is created through the MCP create_invoice tool with the same fields (listed there by reference), and refused with the same paths', async () => {
    const account = await stampingAccount(stack);
    const client = await connectMcp(stack.api.url, '/mcp/test', account.testKey);
    try {
      const created = await callTool(client, 'create_invoice', {
        ...freightBody(account.merchantId),
        idempotency_key: idempotencyKey(),
      });
      expect(created.result.isError).toBeFalsy();
      expect(created.data).toMatchObject({ status: 'stamped' });
      expect((await stored(created.data.id)).stamped_xml).toContain('<cartaporte31:CartaPorte ');
      const body = freightBody(account.merchantId);
      body.cartaPorte.autotransporte.permSCT = 'TPAF99';
      const refused = await callTool(client, 'create_invoice', {
        ...body,
        idempotency_key: idempotencyKey(),
      });
      expect(refused.result.isError).toBe(true);
      expect(refused.problem.errors.map((e: { path: string }) => e.path)).toContain(
        '/cartaPorte/autotransporte/permSCT',
      );
    } finally {
      await client.close();
    }
  }, 90_000);
});

type Body = ReturnType<typeof freightBody>;
const RULES: Array<[string, (b: Body) => void, string]> = [
  [
    'a destination arrives after the departure',
    (b) => Object.assign(b.cartaPorte.ubicaciones[1]!, { fechaHora: '2026-11-21T07:00:00' }),
    '/cartaPorte/ubicaciones/1/fechaHora',
  ],
  [
    'a hazardous good needs the environmental insurance',
    (b) => {
      const seguros = b.cartaPorte.autotransporte.seguros as Record<string, unknown>;
      delete seguros.aseguraMedAmbiente;
      delete seguros.polizaMedAmbiente;
    },
    '/cartaPorte/autotransporte/seguros/aseguraMedAmbiente',
  ],
  [
    'a tractor configuration pulls a trailer',
    (b) => delete (b.cartaPorte.autotransporte as Record<string, unknown>).remolques,
    '/cartaPorte/autotransporte/remolques',
  ],
  [
    'BienesTransp a c_ClaveProdServCP key (a service is not a good that travels)',
    (b) => Object.assign(b.cartaPorte.mercancias[0]!, { bienesTransp: '78101802' }),
    '/cartaPorte/mercancias/0/bienesTransp',
  ],
  [
    'an unknown field of the complement (schema)',
    (b) => Object.assign(b.cartaPorte.autotransporte, { color: 'rojo' }),
    '/cartaPorte/autotransporte/color',
  ],
];

describe('the Carta Porte rules through the API, each a 400 problem+json with its path and nothing charged', () => {
  let account: Awaited<ReturnType<typeof stampingAccount>>;
  beforeAll(async () => {
    account = await stampingAccount(stack);
  }, 60_000);

  it.each(RULES)('%s', async (_rule, change, pointer) => {
    const body = structuredClone(freightBody(account.merchantId));
    change(body);
    const res = await post(account.testKey, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect((res.body.errors as Array<{ path: string }>).map((e) => e.path)).toContain(pointer);
    expect(
      await getBalanceCentavos(stack.api.orm.em.fork(), { accountId: account.accountId, livemode: false }),
    ).toBe(100000);
  });
});
