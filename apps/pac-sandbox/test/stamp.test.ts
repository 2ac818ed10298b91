import { parseTfd, tfdCadena, verifySeal } from '@cfdi/cfdi';
import { FinkokPac } from '@cfdi/pac';
import { createVerify, X509Certificate } from 'node:crypto';
import { buildSandboxApp, DEFAULT_RFC_PROV_CERTIF } from '../src/app';
import { mexicoLocal } from '../src/time/mexico-time';
import { sealedInvoice } from './helpers/cfdi-fixture';
import { PINNED_NOW, startSandbox, type Harness } from './helpers/harness';
import { testCsd } from './helpers/sat-files';

const csd = testCsd('EKU9003173C9-csd');
let h: Harness;
let satCert: X509Certificate;
let noCertificadoSat: string;

beforeAll(async () => {
  h = await startSandbox();
  await h.pac.registerCsd({ rfc: 'EKU9003173C9', certificateDer: csd.certificateDer });
  const { body } = await h.control<{ certificate: string; noCertificado: string }>(
    'GET',
    '/sandbox/sat-certificate',
  );
  satCert = new X509Certificate(Buffer.from(body.certificate, 'base64'));
  noCertificadoSat = body.noCertificado;
});
afterAll(() => h.close());

describe('stamp', () => {
  test('appends a TFD 1.1 whose SelloSAT verifies with the sandbox SAT certificate', async () => {
    const xml = sealedInvoice({ fecha: h.fecha(), folio: 'S-1', csd });
    const result = await h.pac.stamp(xml);
    if (result.outcome !== 'stamped') throw new Error(JSON.stringify(result));

    const tfd = parseTfd(result.xml)!;
    expect(tfd.version).toBe('1.1');
    expect(tfd.uuid).toMatch(/^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    expect(tfd.fechaTimbrado).toBe(mexicoLocal(PINNED_NOW));
    expect(tfd.fechaTimbrado).toBe('2026-11-21T12:00:00');
    expect(tfd.rfcProvCertif).toBe(DEFAULT_RFC_PROV_CERTIF);
    expect(tfd.noCertificadoSAT).toBe(noCertificadoSat);
    expect(tfd.noCertificadoSAT).toMatch(/^\d{20}$/);
    expect(tfd.selloCFD).toBe(/ Sello="([^"]+)"/.exec(xml)![1]);
    const selloSatOk = createVerify('RSA-SHA256')
      .update(tfdCadena(result.xml), 'utf8')
      .verify(satCert.publicKey, tfd.selloSAT, 'base64');
    expect(selloSatOk).toBe(true);

    expect(result.uuid).toBe(tfd.uuid);
    expect(result.fechaTimbrado).toBe(tfd.fechaTimbrado);
    expect(result.previouslyStamped).toBe(false);
    // The issuer's seal still verifies: the TFD is outside the cadena and the sealed bytes are intact.
    expect(verifySeal(result.xml).valid).toBe(true);
    expect(result.xml.startsWith(xml.slice(0, xml.indexOf('</cfdi:Comprobante>')).slice(0, 200))).toBe(true);
  });

  test('the same sealed XML twice yields the original stamp (307 with data)', async () => {
    const xml = sealedInvoice({ fecha: h.fecha(), folio: 'S-2', csd });
    const first = await h.pac.stamp(xml);
    const second = await h.pac.stamp(xml);
    expect(first.outcome).toBe('stamped');
    expect(second).toMatchObject({ outcome: 'stamped', previouslyStamped: true });
    if (first.outcome !== 'stamped' || second.outcome !== 'stamped') return;
    expect(second.uuid).toBe(first.uuid);
    expect(second.xml).toBe(first.xml);
    expect(second.incidences.map((i) => i.code)).toEqual(['307']);
  });

  test('concurrent stamps of the same XML produce one UUID', async () => {
    const xml = sealedInvoice({ fecha: h.fecha(), folio: 'S-3', csd });
    const results = await Promise.all([h.pac.stamp(xml), h.pac.stamp(xml), h.pac.stamp(xml)]);
    const uuids = new Set(results.map((r) => (r.outcome === 'stamped' ? r.uuid : r.outcome)));
    expect(uuids.size).toBe(1);
    expect([...uuids][0]).toMatch(/^[0-9A-F-]{36}$/);
  });

  test('stamped (the already-stamped lookup) answers 603 before and the original stamp after', async () => {
    const xml = sealedInvoice({ fecha: h.fecha(), folio: 'S-4', csd });
    expect(await h.pac.lookupStamped(xml)).toMatchObject({ outcome: 'not_stamped', code: '603' });
    const stamped = await h.pac.stamp(xml);
    const lookup = await h.pac.lookupStamped(xml);
    expect(lookup).toMatchObject({ outcome: 'stamped', previouslyStamped: true });
    if (stamped.outcome === 'stamped' && lookup.outcome === 'stamped') expect(lookup.uuid).toBe(stamped.uuid);
  });

  test('query_pending reports a stamped UUID as delivered (F) and an unknown one as not found', async () => {
    const stamped = await h.pac.stamp(sealedInvoice({ fecha: h.fecha(), folio: 'S-5', csd }));
    if (stamped.outcome !== 'stamped') throw new Error(stamped.outcome);
    expect(await h.pac.queryPending(stamped.uuid)).toMatchObject({
      outcome: 'found',
      status: 'F',
      uuid: stamped.uuid,
    });
    expect(await h.pac.queryPending('00000000-0000-4000-8000-000000000000')).toMatchObject({
      outcome: 'not_found',
    });
  });

  test('registration: add twice is refused, get reports the account, edit suspends it', async () => {
    expect(await h.pac.registerCsd({ rfc: 'EKU9003173C9' })).toMatchObject({ outcome: 'rejected' });
    expect(await h.pac.getCsd('EKU9003173C9')).toMatchObject({
      outcome: 'found',
      rfc: 'EKU9003173C9',
      status: 'A',
      typeUser: 'O',
    });
    expect(await h.pac.getCsd('CACX7605101P8')).toEqual({ outcome: 'not_found' });
    expect(
      await h.pac.registerCsd({ rfc: 'CACX7605101P8', certificateDer: csd.certificateDer }),
    ).toMatchObject({ outcome: 'rejected' });
    expect(await h.pac.updateCsd({ rfc: 'IIA040805DZ4', status: 'S' })).toMatchObject({
      outcome: 'rejected',
    });
  });

  test('a restarted sandbox keeps its SAT certificate and what it stamped', async () => {
    const xml = sealedInvoice({ fecha: h.fecha(), folio: 'S-6', csd });
    const stamped = await h.pac.stamp(xml);
    if (stamped.outcome !== 'stamped') throw new Error(stamped.outcome);
    const restarted = await buildSandboxApp({ databaseUrl: h.databaseUrl, now: () => h.clock.now });
    try {
      const base = await restarted.listen({ port: 0, host: '127.0.0.1' });
      const cert = await fetch(`${base}/sandbox/sat-certificate`);
      expect(await cert.json()).toMatchObject({ noCertificado: noCertificadoSat });
      const pac = new FinkokPac({ url: base, username: 'u', password: 'p' });
      expect(await pac.lookupStamped(xml)).toMatchObject({ outcome: 'stamped', uuid: stamped.uuid });
      pac.close();
    } finally {
      await restarted.close();
    }
  });
});
