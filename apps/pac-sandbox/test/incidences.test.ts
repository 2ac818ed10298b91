import { defaultSatDir } from '@cfdi/config';
import { sealXml } from '@cfdi/cfdi';
import path from 'node:path';
import { generateCertificate, taxpayerSubject, TEST_CA_ISSUER } from '../src/sat/forge-certificate';
import { setRoot, sealedInvoice, withDescription, withEmisor } from './helpers/cfdi-fixture';
import { forgedCsd } from './helpers/forged-csd';
import { PINNED_NOW, startSandbox, type Harness } from './helpers/harness';
import { exampleXml, testCsd } from './helpers/sat-files';

const eku = testCsd('EKU9003173C9-csd');
const HOUR = 3_600_000;
let h: Harness;

beforeAll(async () => {
  h = await startSandbox();
  await h.pac.registerCsd({ rfc: 'EKU9003173C9' });
  await h.pac.registerCsd({ rfc: 'XIA190128J61' });
  await h.pac.registerCsd({ rfc: 'IIA040805DZ4' });
  await h.pac.updateCsd({ rfc: 'IIA040805DZ4', status: 'S' });
});
afterAll(() => h.close());

let folio = 0;
const invoice = (spec: Partial<Parameters<typeof sealedInvoice>[0]> = {}) =>
  sealedInvoice({ fecha: h.fecha(), folio: `I-${++folio}`, csd: eku, ...spec });

/** Every incidence produced by a real bad document, not by a fault. */
const cases: Array<[name: string, code: string, build: () => string]> = [
  ['malformed XML', '301', () => invoice().replace('</cfdi:Conceptos>', '')],
  [
    'not a CFDI 4.0 (no Receptor)',
    '301',
    () => sealXml(exampleXml('cfdi40-ingreso.xml').replace(/<cfdi:Receptor [^>]*\/>/, ''), eku).xml,
  ],
  ['seal broken', '302', () => invoice().replace(/ Sello="([A-Za-z0-9+/]{10})/, ' Sello="AAAAAAAAAA')],
  ['total altered after sealing', '302', () => setRoot(invoice(), { Total: '31919.00' })],
  [
    'issuer RFC differs from the certificate RFC',
    '303',
    () => invoice({ csd: testCsd('CACX7605101P8-csd') }),
  ],
  [
    'expired SAT CSD (XIA190128J61, expired 2023)',
    '304',
    () =>
      invoice({
        csd: testCsd('XIA190128J61-csd-expired'),
        edit: withEmisor('XIA190128J61', 'XENON INDUSTRIAL ARTICLES'),
      }),
  ],
  [
    'CSD valid at Fecha but expired before stamping',
    '304',
    () =>
      invoice({
        fecha: h.fecha(30 * 60),
        csd: forgedCsd({
          notBefore: new Date(PINNED_NOW.getTime() - 240 * HOUR),
          notAfter: new Date(PINNED_NOW.getTime() - 24 * HOUR),
        }),
      }),
  ],
  [
    'Fecha before the CSD validity',
    '305',
    () =>
      invoice({
        fecha: h.fecha(120),
        csd: forgedCsd({
          notBefore: new Date(PINNED_NOW.getTime() - HOUR),
          notAfter: new Date(PINNED_NOW.getTime() + 1000 * HOUR),
        }),
      }),
  ],
  ['FIEL instead of CSD', '306', () => invoice({ csd: testCsd('EKU9003173C9-fiel') })],
  [
    'certificate not issued by the SAT',
    '308',
    () =>
      invoice({
        csd: forgedCsd(
          {
            notBefore: new Date(PINNED_NOW.getTime() - HOUR),
            notAfter: new Date(PINNED_NOW.getTime() + 1000 * HOUR),
          },
          [{ shortName: 'CN', value: 'ACME CA' }],
        ),
      }),
  ],
  ['Fecha 73 hours old', '401', () => invoice({ fecha: h.fecha(73 * 60) })],
  ['Fecha in the future', '401', () => invoice({ fecha: h.fecha(-120) })],
  [
    'NoCertificado does not match the certificate',
    '712',
    () => setRoot(invoice(), { NoCertificado: '30001000000500003415' }),
  ],
  [
    'issuer not registered with the PAC',
    '702',
    () =>
      invoice({
        csd: testCsd('CACX7605101P8-csd'),
        edit: withEmisor('CACX7605101P8', 'XOCHILT CASAS CHAVEZ'),
      }),
  ],
  [
    'magic token SANDBOX_REJECT_CFDI40145',
    'CFDI40145',
    () => invoice({ edit: withDescription('Servicio SANDBOX_REJECT_CFDI40145') }),
  ],
];

describe('incidences from bad documents', () => {
  test.each(cases)('%s → %s', async (_name, code, build) => {
    const result = await h.pac.stamp(build());
    expect(result).toMatchObject({ outcome: 'rejected', code });
    if (result.outcome === 'rejected') expect(result.message).not.toBe('');
  });

  test('a stamped document sent again (it carries a TFD) → 707', async () => {
    const stamped = await h.pac.stamp(invoice());
    if (stamped.outcome !== 'stamped') throw new Error(stamped.outcome);
    expect(await h.pac.stamp(stamped.xml)).toMatchObject({ outcome: 'rejected', code: '707' });
  });

  test('suspended issuer → 701', async () => {
    // IIA040805DZ4 has no valid SAT test CSD; a forged one with its RFC is enough to reach the registration check.
    const csd = generateCertificate({
      noCertificado: '30001000000500007777',
      subject: taxpayerSubject(
        'IIA040805DZ4 / KAHO641101B39',
        'INDISTRIA ILUMINADORA DE ALMACENES',
        'Sucursal 1',
      ),
      issuer: TEST_CA_ISSUER,
      notBefore: new Date(PINNED_NOW.getTime() - HOUR),
      notAfter: new Date(PINNED_NOW.getTime() + 1000 * HOUR),
      profile: 'csd',
    });
    const xml = invoice({ csd, edit: withEmisor('IIA040805DZ4', 'INDISTRIA ILUMINADORA DE ALMACENES') });
    expect(await h.pac.stamp(xml)).toMatchObject({ outcome: 'rejected', code: '701' });
  });

  test('magic token SANDBOX_SAT_UNAVAILABLE → 708, classified unavailable (nothing stamped)', async () => {
    const xml = invoice({ edit: withDescription('Servicio SANDBOX_SAT_UNAVAILABLE') });
    expect(await h.pac.stamp(xml)).toMatchObject({
      outcome: 'unavailable',
      reason: 'sat_unreachable',
      code: '708',
    });
    expect(await h.pac.lookupStamped(xml)).toMatchObject({ outcome: 'not_stamped', code: '603' });
  });
});

describe('credentials', () => {
  test('wrong username/password → 300, classified unavailable (authentication)', async () => {
    const guarded = await startSandbox({ credentials: { username: 'user', password: 'secret' } });
    try {
      expect(await guarded.client({ username: 'user', password: 'wrong' }).stamp(invoice())).toMatchObject({
        outcome: 'unavailable',
        reason: 'authentication',
        code: '300',
      });
    } finally {
      await guarded.close();
    }
  });
});

describe('optional XSD validation (xmllint, PAC_SANDBOX_XSD=true)', () => {
  test('a schema-valid document stamps; a value outside the XSD enumeration → 301', async () => {
    const strict = await startSandbox({ xsdPath: path.join(defaultSatDir(), 'xml/cfdi40-bundle.xsd') });
    try {
      await strict.pac.registerCsd({ rfc: 'EKU9003173C9' });
      const fecha = strict.fecha();
      expect(await strict.pac.stamp(sealedInvoice({ fecha, folio: 'X-1', csd: eku }))).toMatchObject({
        outcome: 'stamped',
      });
      const invalid = sealedInvoice({ fecha, folio: 'X-2', csd: eku, root: { Exportacion: '09' } });
      const result = await strict.pac.stamp(invalid);
      expect(result).toMatchObject({ outcome: 'rejected', code: '301' });
      if (result.outcome === 'rejected') expect(result.incidences[0]?.extraInfo).toMatch(/Exportacion/);
    } finally {
      await strict.close();
    }
  });
});
