import fc from 'fast-check';
import type { Issuer } from '../src';
import { cartaPorteKeys } from './catalogs';
import { ISSUERS, RECEIVERS } from './generators';

/**
 * Carta Porte 3.1 requests as the API receives them: traslados (T) of the issuer's own goods and freight invoices (I)
 * of a carrier, one or several origins and destinations (addresses with and without the optional keys), goods of
 * every size with hazardous materials (their key, packaging and environmental insurance), rigid trucks and tractors
 * with one or two trailers, and the operador with owners or lessors of the vehicle parts.
 */
// Fixed samples of the SAT's large catalogs keep the corpus reproducible; every key of the XSD is equally valid.
const PRODUCTOS = cartaPorteKeys('c_ClaveProdServCP').filter((_, i) => i % 811 === 0);
const PELIGROSOS = cartaPorteKeys('c_MaterialPeligroso').filter((_, i) => i % 97 === 0);
const EMBALAJES = cartaPorteKeys('c_TipoEmbalaje');
const PERMISOS = cartaPorteKeys('c_TipoPermiso').filter((k) => k.startsWith('TPAF') || k === 'TPXX00');
const SUBTIPOS = cartaPorteKeys('c_SubTipoRem');
const RIGID = ['C2', 'C3', 'VL'];
const TRACTORS = ['T2S1', 'T3S2', 'T3S3', 'C2R2', 'T3S2R4', 'T2S2S2'];
const UNITS = ['H87', 'KGM', 'XBX', 'E48', 'LTR'];

const PLACES = [
  {
    estado: 'JAL',
    codigoPostal: '44100',
    municipio: '039',
    localidad: '01',
    colonia: '0001',
    calle: 'Av. Juárez',
  },
  { estado: 'NLE', codigoPostal: '64000', municipio: '039', calle: 'Calle Zaragoza', numeroExterior: '120' },
  { estado: 'CMX', codigoPostal: '06000', referencia: 'Bodega 3, andén  norte', calle: 'Eje Central' },
  { estado: 'HID', codigoPostal: '42501' },
  { estado: 'VER', codigoPostal: '91700', colonia: '0145', numeroInterior: 'B-2' },
  { estado: 'SON', codigoPostal: '83000', municipio: '030', localidad: '01' },
];

export interface CartaPorteCase {
  kind: 'T' | 'I';
  issuer: Issuer;
  csd: string;
  request: Record<string, unknown>;
}

const good = fc.record({
  product: fc.constantFrom(...PRODUCTOS),
  unit: fc.constantFrom(...UNITS),
  quantity: fc.integer({ min: 1, max: 100_000 }),
  grams: fc.integer({ min: 1, max: 30_000_000 }),
  hazardous: fc.option(
    fc.record({ key: fc.constantFrom(...PELIGROSOS), pack: fc.constantFrom(...EMBALAJES) }),
    {
      nil: undefined,
    },
  ),
  valor: fc.option(fc.integer({ min: 0, max: 50_000_000 }), { nil: undefined }),
  dims: fc.option(fc.constantFrom('30/40/30cm', '120/80/100cm', '12/12/24plg'), { nil: undefined }),
});

const leg = fc.record({
  place: fc.integer({ min: 0, max: PLACES.length - 1 }),
  km: fc.integer({ min: 1, max: 1_500_000 }),
});

export const cartaPorteCase: fc.Arbitrary<CartaPorteCase> = fc
  .record({
    kind: fc.constantFrom<'T' | 'I'>('T', 'I'),
    issuer: fc.constantFrom(...ISSUERS),
    receiver: fc.constantFrom(...RECEIVERS),
    origins: fc.integer({ min: 1, max: 2 }),
    legs: fc.array(leg, { minLength: 1, maxLength: 4 }),
    goods: fc.array(good, { minLength: 1, maxLength: 6 }),
    tractor: fc.boolean(),
    config: fc.nat(),
    trailers: fc.integer({ min: 1, max: 2 }),
    permiso: fc.constantFrom(...PERMISOS),
    year: fc.integer({ min: 1995, max: 2026 }),
    owner: fc.boolean(),
    cargoInsurance: fc.boolean(),
    explicitIds: fc.boolean(),
    startMinute: fc.integer({ min: 0, max: 60 * 24 * 20 }),
  })
  .map((g) => {
    const { issuer, csd } = g.issuer;
    const start = Date.parse('2026-11-01T06:00:00Z') + g.startMinute * 60_000;
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString().slice(0, 19);
    const ubicaciones: Array<Record<string, unknown>> = [];
    for (let o = 0; o < g.origins; o++)
      ubicaciones.push({
        tipo: 'Origen',
        ...(g.explicitIds ? { idUbicacion: `OR${String(o + 11).padStart(6, '0')}` } : {}),
        rfc: issuer.rfc,
        nombre: issuer.legalName,
        fechaHora: at(o * 45),
        domicilio: { ...PLACES[(o + g.startMinute) % PLACES.length]!, pais: 'MEX' },
      });
    g.legs.forEach((l, i) =>
      ubicaciones.push({
        tipo: 'Destino',
        ...(g.explicitIds ? { idUbicacion: `DE${String(i + 21).padStart(6, '0')}` } : {}),
        rfc: i % 2 === 0 ? g.receiver.rfc : issuer.rfc,
        ...(i % 2 === 0 ? { nombre: g.receiver.name } : {}),
        fechaHora: at(g.origins * 45 + (i + 1) * 600),
        distanciaRecorrida: l.km / 100,
        domicilio: PLACES[l.place]!,
      }),
    );
    const hazardous = g.goods.some((x) => x.hazardous);
    const mercancias = g.goods.map((x, i) => ({
      bienesTransp: x.product,
      descripcion: `Mercancía ${i} «${x.product}»`,
      cantidad: x.quantity,
      claveUnidad: x.unit,
      pesoEnKg: (x.grams / 1000).toFixed(3),
      ...(x.dims ? { dimensiones: x.dims } : {}),
      ...(x.hazardous
        ? { materialPeligroso: true, cveMaterialPeligroso: x.hazardous.key, embalaje: x.hazardous.pack }
        : i % 3 === 0
          ? { materialPeligroso: false }
          : {}),
      ...(x.valor !== undefined ? { valorMercancia: (x.valor / 100).toFixed(2), moneda: 'MXN' } : {}),
    }));
    const config = g.tractor ? TRACTORS[g.config % TRACTORS.length]! : RIGID[g.config % RIGID.length]!;
    const autotransporte = {
      permSCT: g.permiso,
      numPermisoSCT:
        g.permiso === 'TPXX00' ? 'Permiso no contemplado en el catálogo' : `SCT-${g.config % 100000}`,
      configVehicular: config,
      pesoBrutoVehicular: g.tractor ? 41.5 : 8.25,
      placaVM: `AB${String(g.config % 10000).padStart(4, '0')}`,
      anioModeloVM: g.year,
      seguros: {
        aseguraRespCivil: 'SEGUROS DEL CENTRO',
        polizaRespCivil: `RC-${g.year}-001`,
        ...(hazardous ? { aseguraMedAmbiente: 'ECO SEGUROS', polizaMedAmbiente: 'MA-7781' } : {}),
        ...(g.cargoInsurance
          ? { aseguraCarga: 'CARGA SEGURA', polizaCarga: 'CG-1200', primaSeguro: 1250.5 }
          : {}),
      },
      ...(g.tractor
        ? {
            remolques: Array.from({ length: g.trailers }, (_, i) => ({
              subTipoRem: SUBTIPOS[(g.config + i) % SUBTIPOS.length]!,
              placa: `RM${String((g.config + i) % 100000).padStart(5, '0')}`,
            })),
          }
        : {}),
    };
    const figuras: Array<Record<string, unknown>> = [
      {
        tipoFigura: '01',
        rfc: 'FUNK671228PH6',
        numLicencia: `LIC${String(g.year * 7)}`,
        nombre: 'KARLA FUENTE NOLASCO',
      },
    ];
    if (g.owner)
      figuras.push({
        tipoFigura: '02',
        rfc: 'URE180429TM6',
        nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
        partesTransporte: g.tractor ? ['PT01', 'PT05'] : ['PT01'],
        domicilio: { estado: 'TAB', codigoPostal: '86991', pais: 'MEX' },
      });
    const cartaPorte = { ubicaciones, mercancias, autotransporte, figuras };
    if (g.kind === 'T')
      return {
        kind: 'T' as const,
        issuer,
        csd,
        request: {
          items: g.goods.map((x, i) => ({
            productCode: x.product,
            unitCode: x.unit,
            description: `Mercancía ${i}`,
            quantity: x.quantity,
          })),
          cartaPorte,
        },
      };
    return {
      kind: 'I' as const,
      issuer,
      csd,
      request: {
        formaPago: '03',
        usoCfdi: 'G03',
        receiver: g.receiver,
        items: [
          {
            productCode: '78101802',
            unitCode: 'E48',
            description: 'Servicio de flete',
            quantity: 1,
            unitPrice: (g.legs.reduce((a, l) => a + l.km, 0) / 100 + 500).toFixed(2),
          },
        ],
        cartaPorte,
      },
    };
  });
