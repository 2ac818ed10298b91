import fc from 'fast-check';
import type { RetentionInput } from '../src';
import { ISSUERS, RECEIVERS } from './generators';

const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => (c / 100).toFixed(2));
const key = (from: number, to: number) =>
  fc.integer({ min: from, max: to }).map((n) => String(n).padStart(2, '0'));

/** Names with the characters that need escaping (&, <, >, quotes, Ñ) and runs of spaces the cadena collapses. */
const awkwardName = fc.constantFrom(
  'PROVEEDORA <DEL> NORTE & CIA',
  'JOSÉ "PEPE" ÑÚÑEZ',
  "O'BRIEN  HOLDINGS   LLC",
  'ACME   GMBH',
  'SMITH & SONS <UK>',
);

const receiver: fc.Arbitrary<RetentionInput['receiver']> = fc.oneof(
  fc.record(
    {
      nacionalidad: fc.constant('Nacional' as const),
      rfc: fc.constantFrom(...RECEIVERS.map((r) => r.rfc)),
      name: fc.oneof(fc.constantFrom(...RECEIVERS.map((r) => r.name)), awkwardName),
      zip: fc.constantFrom(...RECEIVERS.map((r) => r.zip)),
      curp: fc.constantFrom('FUNK671228MDFNLR06', 'IANL750210HDFXZS07'),
    },
    { requiredKeys: ['nacionalidad', 'rfc', 'name', 'zip'] },
  ),
  fc.record(
    {
      nacionalidad: fc.constant('Extranjero' as const),
      name: awkwardName,
      numRegIdTrib: fc.constantFrom('123456789', 'DE811907980', 'GB-9 87 654'),
    },
    { requiredKeys: ['nacionalidad', 'name'] },
  ),
);

const withholding = fc.record(
  {
    baseRet: cents(50_000_000),
    impuestoRet: fc.constantFrom('001', '002', '003'),
    montoRet: cents(5_000_000),
    tipoPagoRet: key(1, 4),
  },
  { requiredKeys: ['montoRet', 'tipoPagoRet'] },
);

/** A withholding certificate as the API would accept it, with the issuer's CSD name. */
export const retention: fc.Arbitrary<{ input: RetentionInput; csd: string }> = fc
  .record({
    issuerIndex: fc.integer({ min: 0, max: ISSUERS.length - 1 }),
    folioInt: fc.option(fc.stringMatching(/^[0-9A-Za-z]{1,20}$/), { nil: undefined }),
    cveRetenc: key(1, 28),
    desc: fc.option(fc.constantFrom('Retención por servicios <profesionales> & honorarios', 'Otro   tipo'), {
      nil: undefined,
    }),
    related: fc.option(
      fc.record({ tipoRelacion: fc.constant('04'), uuid: fc.uuid().map((u) => u.toUpperCase()) }),
      { nil: undefined },
    ),
    receiver,
    months: fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 })),
    ejercicio: fc.integer({ min: 2019, max: 2026 }),
    grav: cents(100_000_000),
    exent: cents(100_000_000),
    utilidad: fc.option(fc.tuple(cents(10_000_000), cents(1_000_000)), { nil: undefined }),
    withholdings: fc.array(withholding, { minLength: 0, maxLength: 4 }),
  })
  .map((g) => {
    const { issuer, csd } = ISSUERS[g.issuerIndex]!;
    const input: RetentionInput = {
      issuer,
      ...(g.folioInt === undefined ? {} : { folioInt: g.folioInt }),
      cveRetenc: g.cveRetenc,
      ...(g.cveRetenc === '25' || g.desc !== undefined ? { descRetenc: g.desc ?? 'Otro' } : {}),
      ...(g.related ? { related: g.related } : {}),
      receiver: g.receiver,
      period: { mesIni: Math.min(...g.months), mesFin: Math.max(...g.months), ejercicio: g.ejercicio },
      totals: {
        montoTotGrav: g.grav,
        montoTotExent: g.exent,
        ...(g.utilidad ? { utilidadBimestral: g.utilidad[0], isrCorrespondiente: g.utilidad[1] } : {}),
      },
      withholdings: g.withholdings,
    };
    return { input, csd };
  });
