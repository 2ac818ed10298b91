import {
  buildCancelacionXml,
  signCancelacion,
  verifyEnvelopedSignature,
  type CancelacionFolio,
  type MotivoCancelacion,
} from '@cfdi/pac';
import { X509Certificate } from 'node:crypto';
import type { SandboxOptions } from '../src/app';
import { sealedInvoice, withDescription, withReceptorRfc, withRelated } from './helpers/cfdi-fixture';
import { startSandbox, type Harness } from './helpers/harness';
import { testCsd, type TestCsd } from './helpers/sat-files';

const eku = testCsd('EKU9003173C9-csd');
const HOUR = 3_600_000;
let folio = 0;

/** These suites exercise the acceptance flow on fresh documents: RMF 2.7.1.35-IX off unless an option turns it on. */
async function sandbox(options: Partial<SandboxOptions> = {}): Promise<Harness> {
  const h = await startSandbox({ nextBusinessDayRule: false, ...options });
  await h.pac.registerCsd({ rfc: 'EKU9003173C9' });
  await h.pac.registerCsd({ rfc: 'CACX7605101P8' });
  return h;
}

/** Stamps the example invoice (total 31,920.00 to URE180429TM6: needs acceptance) with optional edits. */
async function stamp(
  h: Harness,
  edit?: (xml: string) => string,
  root?: Record<string, string>,
): Promise<{ uuid: string; total: string }> {
  const xml = sealedInvoice({
    fecha: h.fecha(),
    folio: `C-${++folio}`,
    csd: eku,
    ...(edit ? { edit } : {}),
    ...(root ? { root } : {}),
  });
  const result = await h.pac.stamp(xml);
  if (result.outcome !== 'stamped') throw new Error(JSON.stringify(result));
  return { uuid: result.uuid, total: / Total="([^"]+)"/.exec(xml)![1]! };
}

function request(
  h: Harness,
  folios: CancelacionFolio[],
  signer: TestCsd = eku,
  rfcEmisor = 'EKU9003173C9',
): string {
  return signCancelacion(buildCancelacionXml({ rfcEmisor, fecha: h.fecha(0), folios }), signer);
}

const cancel = (h: Harness, uuid: string, motivo: MotivoCancelacion = '02', folioSustitucion?: string) =>
  h.pac.cancel(request(h, [{ uuid, motivo, ...(folioSustitucion ? { folioSustitucion } : {}) }]));

const status = (h: Harness, uuid: string, total = '31920.00', receptorRfc = 'URE180429TM6') =>
  h.pac.satStatus({ emisorRfc: 'EKU9003173C9', receptorRfc, total, uuid });

const answer = (h: Harness, uuid: string, a: 'accept' | 'reject') =>
  h.control<Record<string, string>>('POST', `/sandbox/receiver/${uuid}/${a}`);

describe('cancellation (next-business-day rule off)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await sandbox();
  });
  afterAll(() => h.close());

  test('without acceptance (público en general): 201, Cancelado sin aceptación, 202 on repeat, acuse kept', async () => {
    const { uuid } = await stamp(h, withReceptorRfc('XAXX010101000'));
    expect(await status(h, uuid, '31920.00', 'XAXX010101000')).toMatchObject({
      outcome: 'found',
      estado: 'Vigente',
      esCancelable: 'Cancelable sin aceptación',
      estatusCancelacion: '',
    });
    const result = await cancel(h, uuid);
    expect(result).toMatchObject({
      outcome: 'submitted',
      rfcEmisor: 'EKU9003173C9',
      folios: [{ uuid, estatusUuid: '201', estatusCancelacion: 'Cancelado sin aceptación' }],
    });
    expect(await status(h, uuid, '31920.00', 'XAXX010101000')).toMatchObject({
      estado: 'Cancelado',
      esCancelable: 'Cancelable sin aceptación',
      estatusCancelacion: 'Cancelado sin aceptación',
    });
    expect(await cancel(h, uuid)).toMatchObject({ outcome: 'submitted', folios: [{ estatusUuid: '202' }] });

    // The acuse is signed by the sandbox SAT certificate and is what get_receipt returns.
    if (result.outcome !== 'submitted') return;
    const check = verifyEnvelopedSignature(result.acuse);
    expect(check.valid).toBe(true);
    const { body } = await h.control<{ certificate: string }>('GET', '/sandbox/sat-certificate');
    if (check.valid)
      expect(new X509Certificate(check.certificateDer).fingerprint256).toBe(
        new X509Certificate(Buffer.from(body.certificate, 'base64')).fingerprint256,
      );
    expect(result.acuse).toContain(`<UUID>${uuid}</UUID><EstatusUUID>201</EstatusUUID>`);
    expect(await h.pac.receipt({ uuid, emisorRfc: 'EKU9003173C9' })).toMatchObject({
      outcome: 'found',
      uuid,
      receipt: result.acuse,
      date: result.fecha,
    });
    expect(await h.pac.receipt({ uuid, emisorRfc: 'CACX7605101P8' })).toMatchObject({ outcome: 'not_found' });
  });

  test.each([
    ['total ≤ 1,000', undefined, { Total: '1000.00' }],
    ['foreign receiver', withReceptorRfc('XEXX010101000'), undefined],
    ['egreso', undefined, { TipoDeComprobante: 'E' }],
  ] as const)('%s is cancelable without acceptance', async (_name, edit, root) => {
    const { uuid } = await stamp(h, edit, root);
    expect(await cancel(h, uuid)).toMatchObject({
      folios: [{ estatusUuid: '201', estatusCancelacion: 'Cancelado sin aceptación' }],
    });
  });

  test('with acceptance, accepted: En proceso → Cancelado con aceptación; a second answer is refused', async () => {
    const { uuid } = await stamp(h);
    expect(await status(h, uuid)).toMatchObject({
      estado: 'Vigente',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: '',
    });
    expect(await cancel(h, uuid)).toMatchObject({
      folios: [{ estatusUuid: '201', estatusCancelacion: 'En proceso' }],
    });
    expect(await status(h, uuid)).toMatchObject({
      estado: 'Vigente',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: 'En proceso',
    });
    expect(await cancel(h, uuid)).toMatchObject({
      folios: [{ estatusUuid: '202', estatusCancelacion: 'En proceso' }],
    });

    const accepted = await answer(h, uuid, 'accept');
    expect(accepted).toMatchObject({
      status: 200,
      body: { code: '1000', estado: 'Cancelado', estatusCancelacion: 'Cancelado con aceptación' },
    });
    expect(await status(h, uuid)).toMatchObject({
      estado: 'Cancelado',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: 'Cancelado con aceptación',
    });
    expect(await answer(h, uuid, 'reject')).toMatchObject({ status: 409, body: { code: '1002' } });
  });

  test.each([
    ['SANDBOX_RECEIVER_ACCEPTS', 'Cancelado', 'Cancelado con aceptación'],
    ['SANDBOX_RECEIVER_REJECTS', 'Vigente', 'Solicitud rechazada'],
  ] as const)('magic token %s: the receiver answers at once', async (token, estado, estatusCancelacion) => {
    const { uuid } = await stamp(h, withDescription(`Colegiatura ${token}`));
    expect(await cancel(h, uuid)).toMatchObject({
      folios: [{ estatusUuid: '201', estatusCancelacion: 'En proceso' }],
    });
    expect(await status(h, uuid)).toMatchObject({
      estado,
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion,
    });
  });

  test('two concurrent requests for one UUID: one 201, the other 202', async () => {
    const { uuid } = await stamp(h);
    const results = await Promise.all([cancel(h, uuid), cancel(h, uuid), cancel(h, uuid)]);
    const codes = results.map((r) => (r.outcome === 'submitted' ? r.folios[0]!.estatusUuid : r.outcome));
    expect(codes.sort()).toEqual(['201', '202', '202']);
    const winner = results.find((r) => r.outcome === 'submitted' && r.folios[0]!.estatusUuid === '201');
    if (winner?.outcome === 'submitted') {
      expect(await h.pac.receipt({ uuid, emisorRfc: 'EKU9003173C9' })).toMatchObject({
        receipt: winner.acuse,
      });
    }
  });

  test('two concurrent receiver answers: exactly one wins', async () => {
    const { uuid } = await stamp(h);
    await cancel(h, uuid);
    const answers = await Promise.all([
      answer(h, uuid, 'accept'),
      answer(h, uuid, 'reject'),
      answer(h, uuid, 'accept'),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.estatusCancelacion;
    expect(await status(h, uuid)).toMatchObject({ estatusCancelacion: winner });
  });

  test('with acceptance, rejected: Solicitud rechazada keeps it Vigente; a new request never expires into acceptance', async () => {
    const { uuid } = await stamp(h);
    await cancel(h, uuid);
    expect((await answer(h, uuid, 'reject')).body).toMatchObject({
      estado: 'Vigente',
      estatusCancelacion: 'Solicitud rechazada',
    });
    expect(await status(h, uuid)).toMatchObject({
      estado: 'Vigente',
      esCancelable: 'Cancelable con aceptación',
      estatusCancelacion: 'Solicitud rechazada',
    });

    expect(await cancel(h, uuid)).toMatchObject({
      folios: [{ estatusUuid: '201', estatusCancelacion: 'En proceso' }],
    });
    const before = h.clock.now;
    h.clock.now = new Date(before.getTime() + 100 * HOUR);
    try {
      expect(await status(h, uuid)).toMatchObject({ estado: 'Vigente', estatusCancelacion: 'En proceso' });
    } finally {
      h.clock.now = before;
    }
  });

  test('no answer within 72 hours: Plazo vencido (cancelled)', async () => {
    const { uuid } = await stamp(h);
    await cancel(h, uuid);
    const before = h.clock.now;
    h.clock.now = new Date(before.getTime() + 71 * HOUR);
    try {
      expect(await status(h, uuid)).toMatchObject({ estado: 'Vigente', estatusCancelacion: 'En proceso' });
      h.clock.now = new Date(before.getTime() + 72 * HOUR);
      expect(await status(h, uuid)).toMatchObject({
        estado: 'Cancelado',
        esCancelable: 'Cancelable con aceptación',
        estatusCancelacion: 'Plazo vencido',
      });
      expect(await answer(h, uuid, 'accept')).toMatchObject({ status: 409, body: { code: '1002' } });
    } finally {
      h.clock.now = before;
    }
  });

  test('per-UUID answers: 205 unknown, 203 another issuer, 207 motive rules', async () => {
    const { uuid } = await stamp(h);
    const other = await stamp(h);
    const result = await h.pac.cancel(
      request(h, [
        { uuid: '00000000-0000-4000-8000-000000000000', motivo: '02' },
        { uuid: other.uuid, motivo: '01', folioSustitucion: '11111111-1111-4111-8111-111111111111' },
        { uuid, motivo: '03' },
      ]),
    );
    expect(result).toMatchObject({
      outcome: 'submitted',
      folios: [
        { uuid: '00000000-0000-4000-8000-000000000000', estatusUuid: '205' },
        { uuid: other.uuid, estatusUuid: '207' },
        { uuid, estatusUuid: '201' },
      ],
    });
    // Motive 01 without FolioSustitucion and 02 with one: hand-made, the builder refuses the first.
    const motive01 = buildCancelacionXml({
      rfcEmisor: 'EKU9003173C9',
      fecha: h.fecha(0),
      folios: [{ uuid: other.uuid, motivo: '02' }],
    }).replace('Motivo="02"', 'Motivo="01"');
    expect(await h.pac.cancel(signCancelacion(motive01, eku))).toMatchObject({
      folios: [{ estatusUuid: '207' }],
    });
    const motive02 = motive01.replace('Motivo="01"', `Motivo="02" FolioSustitucion="${uuid}"`);
    expect(await h.pac.cancel(signCancelacion(motive02, eku))).toMatchObject({
      folios: [{ estatusUuid: '207' }],
    });

    const cacx = testCsd('CACX7605101P8-csd');
    expect(
      await h.pac.cancel(request(h, [{ uuid: other.uuid, motivo: '02' }], cacx, 'CACX7605101P8')),
    ).toMatchObject({
      folios: [{ estatusUuid: '203' }],
    });
  });

  test('substitution: the replacement makes the original No cancelable except through motive 01', async () => {
    const original = await stamp(h);
    const replacement = await stamp(h, withRelated('04', original.uuid));
    expect(await status(h, original.uuid)).toMatchObject({
      estado: 'Vigente',
      esCancelable: 'No cancelable',
    });
    expect(await cancel(h, original.uuid, '02')).toMatchObject({
      folios: [{ estatusUuid: 'no_cancelable' }],
    });
    expect(await cancel(h, original.uuid, '01', replacement.uuid)).toMatchObject({
      folios: [{ estatusUuid: '201' }],
    });
  });

  test('207 like the SAT: motive 01 naming a stamped CFDI that does not relate it with 04, motive 04 on a non-global CFDI', async () => {
    const original = await stamp(h);
    const unrelated = await stamp(h);
    const creditLike = await stamp(h, withRelated('01', original.uuid));
    expect(await cancel(h, original.uuid, '01', unrelated.uuid)).toMatchObject({
      folios: [{ estatusUuid: '207' }],
    });
    expect(await cancel(h, unrelated.uuid, '01', creditLike.uuid)).toMatchObject({
      folios: [{ estatusUuid: '207' }],
    });
    expect(await cancel(h, unrelated.uuid, '04')).toMatchObject({ folios: [{ estatusUuid: '207' }] });
    const global = await stamp(h, (xml) =>
      xml.replace(
        '<cfdi:Emisor ',
        '<cfdi:InformacionGlobal Periodicidad="04" Meses="11" Año="2026"/><cfdi:Emisor ',
      ),
    );
    expect(await cancel(h, global.uuid, '04')).toMatchObject({ folios: [{ estatusUuid: '201' }] });
  });

  test('request-level errors: tampered signature 302, signer ≠ RfcEmisor 303, FIEL 306', async () => {
    const { uuid } = await stamp(h);
    const signed = request(h, [{ uuid, motivo: '02' }]);
    expect(await h.pac.cancel(signed.replace('Motivo="02"', 'Motivo="03"'))).toMatchObject({
      outcome: 'rejected',
      code: '302',
    });
    expect(
      await h.pac.cancel(request(h, [{ uuid, motivo: '02' }], testCsd('CACX7605101P8-csd'))),
    ).toMatchObject({ outcome: 'rejected', code: '303' });
    expect(
      await h.pac.cancel(request(h, [{ uuid, motivo: '02' }], testCsd('EKU9003173C9-fiel'))),
    ).toMatchObject({ outcome: 'rejected', code: '306' });
    expect(await status(h, uuid)).toMatchObject({ estado: 'Vigente', estatusCancelacion: '' });
  });

  test('status query must match the CFDI: wrong total → 601, unknown UUID → 602', async () => {
    const { uuid } = await stamp(h);
    expect(await status(h, uuid, '31920.01')).toMatchObject({ outcome: 'invalid_expression' });
    expect(await status(h, uuid, '31920')).toMatchObject({ outcome: 'found' });
    expect(await status(h, '00000000-0000-4000-8000-000000000000')).toMatchObject({ outcome: 'not_found' });
  });
});

describe('configurable rules', () => {
  test('by default RMF 2.7.1.35-IX applies like at the SAT; a receiver trigger or the acceptance receiver keeps the acceptance flow', async () => {
    const h = await startSandbox();
    try {
      await h.pac.registerCsd({ rfc: 'EKU9003173C9' });
      // 31,920.00 to URE180429TM6 stamped today: no acceptance needed until the end of the next business day.
      const { uuid } = await stamp(h);
      expect(await cancel(h, uuid)).toMatchObject({
        folios: [{ estatusUuid: '201', estatusCancelacion: 'Cancelado sin aceptación' }],
      });
      const waits = await stamp(h, withDescription('Colegiatura SANDBOX_REQUIRE_ACCEPTANCE'));
      expect(await cancel(h, waits.uuid)).toMatchObject({
        folios: [{ estatusUuid: '201', estatusCancelacion: 'En proceso' }],
      });
      expect(await answer(h, waits.uuid, 'accept')).toMatchObject({ status: 200 });
      expect(await status(h, waits.uuid)).toMatchObject({
        estado: 'Cancelado',
        estatusCancelacion: 'Cancelado con aceptación',
      });
      const accepts = await stamp(h, withDescription('Colegiatura SANDBOX_RECEIVER_ACCEPTS'));
      expect(await cancel(h, accepts.uuid)).toMatchObject({ folios: [{ estatusUuid: '201' }] });
      expect(await status(h, accepts.uuid)).toMatchObject({ estatusCancelacion: 'Cancelado con aceptación' });
      const toXenon = await stamp(h, (xml) =>
        withReceptorRfc('XIA190128J61')(xml).replace(
          /(<cfdi:Receptor [^>]*Nombre=")[^"]*"/,
          '$1XENON INDUSTRIAL ARTICLES"',
        ),
      );
      expect(await cancel(h, toXenon.uuid)).toMatchObject({
        folios: [{ estatusUuid: '201', estatusCancelacion: 'En proceso' }],
      });
    } finally {
      await h.close();
    }
  });

  test('next-business-day rule on: cancelable without acceptance until the end of the next business day', async () => {
    const h = await sandbox({ nextBusinessDayRule: true });
    try {
      // Stamped Saturday 2026-11-21 12:00: the next business day is Monday 2026-11-23.
      const { uuid } = await stamp(h);
      expect(await status(h, uuid)).toMatchObject({ esCancelable: 'Cancelable sin aceptación' });
      const saturday = h.clock.now;
      h.clock.now = new Date('2026-11-24T05:59:59Z'); // Monday 23:59:59 in Mexico City
      expect(await status(h, uuid)).toMatchObject({ esCancelable: 'Cancelable sin aceptación' });
      h.clock.now = new Date('2026-11-24T06:00:00Z');
      expect(await status(h, uuid)).toMatchObject({ esCancelable: 'Cancelable con aceptación' });
      h.clock.now = saturday;
      expect(await cancel(h, uuid)).toMatchObject({
        folios: [{ estatusUuid: '201', estatusCancelacion: 'Cancelado sin aceptación' }],
      });
    } finally {
      await h.close();
    }
  });

  test('automatic receiver answer after a delay', async () => {
    const h = await sandbox({ autoAnswer: { answer: 'reject', afterMs: 10 * 60_000 } });
    try {
      const { uuid } = await stamp(h);
      await cancel(h, uuid);
      expect(await status(h, uuid)).toMatchObject({ estatusCancelacion: 'En proceso' });
      h.clock.now = new Date(h.clock.now.getTime() + 10 * 60_000);
      expect(await status(h, uuid)).toMatchObject({
        estado: 'Vigente',
        estatusCancelacion: 'Solicitud rechazada',
      });
    } finally {
      await h.close();
    }
  });
});
