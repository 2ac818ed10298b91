import {
  buildTrasladoXml,
  cadenaOriginal,
  checkInvoiceRequest,
  checkTrasladoRequest,
  computeCartaPorte,
  newIdCCP,
  type Issuer,
} from '../src';
import { tsvCatalogs } from './catalogs';
import { NOW } from './sat-dir';

/** Each Carta Porte 3.1 rule the server checks, with the field path it reports. */
const catalogs = tsvCatalogs();
const issuer: Issuer = {
  rfc: 'EKU9003173C9',
  legalName: 'ESCUELA KEMPER URGATE',
  regimenFiscal: '601',
  zip: '42501',
};
const newUuid = () => '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
type Json = Record<string, any>;

function cartaPorte(): Json {
  return {
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
        domicilio: { estado: 'TAB', codigoPostal: '86991', pais: 'MEX' },
      },
      {
        tipo: 'Destino',
        rfc: 'URE180429TM6',
        fechaHora: '2026-11-22T09:00:00',
        distanciaRecorrida: '120.25',
        domicilio: { estado: 'CAM', codigoPostal: '24000' },
      },
    ],
    mercancias: [
      {
        bienesTransp: '24101500',
        descripcion: 'Montacargas',
        cantidad: 2,
        claveUnidad: 'H87',
        pesoEnKg: '3500.25',
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
  };
}

const traslado = (cp: Json = cartaPorte(), extra: Json = {}): Json => ({
  items: [{ productCode: '24101500', unitCode: 'H87', description: 'Montacargas', quantity: 2 }],
  cartaPorte: cp,
  ...extra,
});

function issuesOf(req: Json) {
  return checkTrasladoRequest(req, catalogs, { issuer, newUuid }).issues;
}

function expectIssue(req: Json, path: string, text: string): void {
  const issues = issuesOf(req);
  expect(issues).toContainEqual({ path, message: expect.stringContaining(text) });
}

const mutate = (f: (cp: Json) => void): Json => {
  const cp = cartaPorte();
  f(cp);
  return traslado(cp);
};

describe('Carta Porte 3.1 rules with field paths', () => {
  it('accepts the base request and computes what the SAT derives', () => {
    const checked = checkTrasladoRequest(traslado(), catalogs, { issuer, newUuid });
    expect(checked.issues).toEqual([]);
    const cp = checked.input!.cartaPorte!;
    expect(cp.idCCP).toBe('CCC504e0-4f89-41d3-9a0c-0305e82c3301');
    expect(computeCartaPorte(cp)).toEqual({
      totalDistRec: '570.75',
      pesoBrutoTotal: '3508.15',
      numTotalMercancias: '2',
      idsUbicacion: ['OR000001', 'DE000001', 'DE000002'],
    });
    const { xml } = buildTrasladoXml(checked.input!, { now: NOW });
    expect(xml).toContain(' TotalDistRec="570.75"');
    expect(xml).toContain('PesoBrutoTotal="3508.15" UnidadPeso="KGM" NumTotalMercancias="2"');
    expect(xml).toContain('MaterialPeligroso="Sí" CveMaterialPeligroso="1090" Embalaje="1A1"');
  });

  it('IdCCP: CCC + the UUID tail, generated when absent; a malformed one is refused', () => {
    expect(newIdCCP('3f2504e0-4f89-41d3-9a0c-0305e82c3301')).toMatch(
      /^CCC[a-f0-9]{5}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/,
    );
    expect(() => newIdCCP('not-a-uuid')).toThrow(RangeError);
    expectIssue(
      mutate((cp) => (cp.idCCP = 'CCD504e0-4f89-41d3-9a0c-0305e82c3301')),
      '/cartaPorte/idCCP',
      'CCC',
    );
    const kept = checkTrasladoRequest(
      mutate((cp) => (cp.idCCP = 'CCCaaaaa-4f89-41d3-9a0c-0305e82c3301')),
      catalogs,
      { issuer, newUuid },
    );
    expect(kept.input!.cartaPorte!.idCCP).toBe('CCCaaaaa-4f89-41d3-9a0c-0305e82c3301');
  });

  it('international transport is refused (not supported yet)', () => {
    expectIssue(
      mutate((cp) => (cp.transpInternac = 'Sí')),
      '/cartaPorte/transpInternac',
      'must be No',
    );
  });

  it('ubicaciones: at least an Origen and a Destino, the first an Origen, ids by kind and unique', () => {
    expectIssue(
      mutate((cp) => cp.ubicaciones.splice(1)),
      '/cartaPorte/ubicaciones',
      'at least one Origen',
    );
    expectIssue(
      mutate((cp) => cp.ubicaciones.splice(0, 1)),
      '/cartaPorte/ubicaciones',
      'at least one Origen and one Destino',
    );
    expectIssue(
      mutate((cp) => cp.ubicaciones.reverse()),
      '/cartaPorte/ubicaciones/0/tipo',
      'must be Origen',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].idUbicacion = 'OR000001')),
      '/cartaPorte/ubicaciones/1/idUbicacion',
      'DE followed by 6 digits',
    );
    expectIssue(
      mutate((cp) => {
        cp.ubicaciones[1].idUbicacion = 'DE000007';
        cp.ubicaciones[2].idUbicacion = 'DE000007';
      }),
      '/cartaPorte/ubicaciones/2/idUbicacion',
      'repeats',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[0].tipo = 'Escala')),
      '/cartaPorte/ubicaciones/0/tipo',
      'Origen or Destino',
    );
  });

  it('date order: arrivals after the departure, destinations in the order reached, valid date-times', () => {
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].fechaHora = '2026-11-21T08:00:00')),
      '/cartaPorte/ubicaciones/1/fechaHora',
      'later than the departure',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[2].fechaHora = '2026-11-21T17:00:00')),
      '/cartaPorte/ubicaciones/2/fechaHora',
      'order reached',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[0].fechaHora = '2026-11-21 08:00')),
      '/cartaPorte/ubicaciones/0/fechaHora',
      'YYYY-MM-DDTHH:MM:SS',
    );
  });

  it('distances: on each Destino only, within 0.01–99999, TotalDistRec their sum', () => {
    expectIssue(
      mutate((cp) => (cp.ubicaciones[0].distanciaRecorrida = 5)),
      '/cartaPorte/ubicaciones/0/distanciaRecorrida',
      'absent on an Origen',
    );
    expectIssue(
      mutate((cp) => delete cp.ubicaciones[1].distanciaRecorrida),
      '/cartaPorte/ubicaciones/1/distanciaRecorrida',
      'is required',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].distanciaRecorrida = 100000)),
      '/cartaPorte/ubicaciones/1/distanciaRecorrida',
      '0.01 to 99999',
    );
    expectIssue(
      mutate((cp) => {
        cp.ubicaciones[1].distanciaRecorrida = 60000;
        cp.ubicaciones[2].distanciaRecorrida = 60000;
      }),
      '/cartaPorte/ubicaciones',
      'at most 99999',
    );
    expectIssue(
      mutate((cp) => (cp.totalDistRec = 570)),
      '/cartaPorte/totalDistRec',
      '570.75',
    );
    expect(issuesOf(mutate((cp) => (cp.totalDistRec = '570.750')))).toEqual([]);
  });

  it('parties and addresses: RFC, foreign parties with their tax id and country, Mexican address keys', () => {
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].rfc = 'URE18042')),
      '/cartaPorte/ubicaciones/1/rfc',
      'valid RFC',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].rfc = 'XEXX010101000')),
      '/cartaPorte/ubicaciones/1/residenciaFiscal',
      'other than MEX',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].numRegIdTrib = '123456789')),
      '/cartaPorte/ubicaciones/1/rfc',
      'foreign parties only',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].domicilio.estado = 'Tabasco')),
      '/cartaPorte/ubicaciones/1/domicilio/estado',
      'c_Estado',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[1].domicilio.codigoPostal = '8699')),
      '/cartaPorte/ubicaciones/1/domicilio/codigoPostal',
      '5-digit',
    );
    expectIssue(
      mutate((cp) => (cp.ubicaciones[0].domicilio.municipio = '48')),
      '/cartaPorte/ubicaciones/0/domicilio/municipio',
      'c_Municipio',
    );
    expectIssue(
      mutate((cp) => delete cp.ubicaciones[0].domicilio),
      '/cartaPorte/ubicaciones/0/domicilio',
      'is required',
    );
  });

  it('goods: catalog keys, quantities and weights, PesoBrutoTotal and NumTotalMercancias', () => {
    expectIssue(
      mutate((cp) => (cp.mercancias = [])),
      '/cartaPorte/mercancias',
      'at least one good',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].bienesTransp = '99999999')),
      '/cartaPorte/mercancias/0/bienesTransp',
      'c_ClaveProdServCP',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].claveUnidad = 'ZZZ')),
      '/cartaPorte/mercancias/0/claveUnidad',
      'c_ClaveUnidad',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].pesoEnKg = '1.2345')),
      '/cartaPorte/mercancias/0/pesoEnKg',
      'at most 3 decimals',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].cantidad = 0)),
      '/cartaPorte/mercancias/0/cantidad',
      'greater than 0',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].dimensiones = '30x40x30')),
      '/cartaPorte/mercancias/0/dimensiones',
      '30/40/30cm',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[0].valorMercancia = 100)),
      '/cartaPorte/mercancias/0/moneda',
      'required with valorMercancia',
    );
    expectIssue(
      mutate((cp) => (cp.pesoBrutoTotal = 3508)),
      '/cartaPorte/pesoBrutoTotal',
      '3508.15',
    );
    expectIssue(
      mutate((cp) => (cp.numTotalMercancias = 3)),
      '/cartaPorte/numTotalMercancias',
      'number of goods, 2',
    );
    expect(
      issuesOf(mutate((cp) => Object.assign(cp, { pesoBrutoTotal: 3508.15, numTotalMercancias: 2 }))),
    ).toEqual([]);
  });

  it('hazardous material: its key and packaging, none without it, and the environmental insurance', () => {
    expectIssue(
      mutate((cp) => delete cp.mercancias[1].cveMaterialPeligroso),
      '/cartaPorte/mercancias/1/cveMaterialPeligroso',
      'is required for a hazardous material',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[1].embalaje = '9Z9')),
      '/cartaPorte/mercancias/1/embalaje',
      'c_TipoEmbalaje',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[1].materialPeligroso = false)),
      '/cartaPorte/mercancias/1/cveMaterialPeligroso',
      'must be absent unless materialPeligroso',
    );
    expectIssue(
      mutate((cp) => (cp.mercancias[1].materialPeligroso = 'Sí')),
      '/cartaPorte/mercancias/1/materialPeligroso',
      'true or false',
    );
    expectIssue(
      mutate((cp) => {
        delete cp.autotransporte.seguros.aseguraMedAmbiente;
        delete cp.autotransporte.seguros.polizaMedAmbiente;
      }),
      '/cartaPorte/autotransporte/seguros/aseguraMedAmbiente',
      'hazardous material',
    );
    expectIssue(
      mutate((cp) => delete cp.autotransporte.seguros.polizaMedAmbiente),
      '/cartaPorte/autotransporte/seguros/polizaMedAmbiente',
      'goes with aseguraMedAmbiente',
    );
  });

  it('vehicle: motor-transport permit, configuration, plate, model year, insurance', () => {
    expectIssue(
      mutate((cp) => (cp.autotransporte.permSCT = 'TPTA01')),
      '/cartaPorte/autotransporte/permSCT',
      'TPAF01',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.configVehicular = 'X9')),
      '/cartaPorte/autotransporte/configVehicular',
      'c_ConfigAutotransporte',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.placaVM = 'AB-123')),
      '/cartaPorte/autotransporte/placaVM',
      'plate',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.anioModeloVM = '2022')),
      '/cartaPorte/autotransporte/anioModeloVM',
      'model year',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.seguros.polizaRespCivil = 'P1')),
      '/cartaPorte/autotransporte/seguros/polizaRespCivil',
      '3 to 30',
    );
    expectIssue(
      mutate((cp) => delete cp.autotransporte),
      '/cartaPorte/autotransporte',
      'is required',
    );
  });

  it('trailers: required by a tractor configuration, absent on a rigid truck, at most two, catalog keys', () => {
    expectIssue(
      mutate((cp) => delete cp.autotransporte.remolques),
      '/cartaPorte/autotransporte/remolques',
      'T3S2',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.configVehicular = 'C2')),
      '/cartaPorte/autotransporte/remolques',
      'pulls no trailer',
    );
    expectIssue(
      mutate((cp) =>
        cp.autotransporte.remolques.push(
          { subTipoRem: 'CTR001', placa: 'AAA111' },
          { subTipoRem: 'CTR001', placa: 'AAA112' },
        ),
      ),
      '/cartaPorte/autotransporte/remolques',
      'one or two',
    );
    expectIssue(
      mutate((cp) => (cp.autotransporte.remolques[0].subTipoRem = 'CTR099')),
      '/cartaPorte/autotransporte/remolques/0/subTipoRem',
      'c_SubTipoRem',
    );
  });

  it('figures: the operador with RFC and licence; owners and lessors with their parts', () => {
    expectIssue(
      mutate((cp) => (cp.figuras[0].tipoFigura = '04')),
      '/cartaPorte/figuras',
      'operador',
    );
    expectIssue(
      mutate((cp) => delete cp.figuras[0].numLicencia),
      '/cartaPorte/figuras/0/numLicencia',
      "driver's licence",
    );
    expectIssue(
      mutate((cp) => (cp.figuras[0].numLicencia = 'L1')),
      '/cartaPorte/figuras/0/numLicencia',
      '6 to 16',
    );
    expectIssue(
      mutate((cp) => delete cp.figuras[0].rfc),
      '/cartaPorte/figuras/0/rfc',
      'RFC',
    );
    expectIssue(
      mutate((cp) => cp.figuras.push({ tipoFigura: '02', rfc: 'URE180429TM6', nombre: 'DUEÑO' })),
      '/cartaPorte/figuras/1/partesTransporte',
      'propietario or arrendador',
    );
    expectIssue(
      mutate((cp) =>
        cp.figuras.push({
          tipoFigura: '03',
          rfc: 'URE180429TM6',
          nombre: 'ARRENDADORA',
          partesTransporte: ['PT13'],
        }),
      ),
      '/cartaPorte/figuras/1/partesTransporte/0',
      'c_ParteTransporte',
    );
    expectIssue(
      mutate((cp) => cp.figuras.push({ tipoFigura: '04', nombre: 'NOTIFICADO', numRegIdTrib: '123456789' })),
      '/cartaPorte/figuras/1/residenciaFiscal',
      'c_Pais',
    );
    expectIssue(
      mutate((cp) => (cp.figuras[0].tipoFigura = '06')),
      '/cartaPorte/figuras/0/tipoFigura',
      'c_FiguraTransporte',
    );
  });

  it('traslado (T): no prices, payment, currency or receiver; at least one good', () => {
    expectIssue(traslado(cartaPorte(), { formaPago: '01' }), '/formaPago', 'must be absent on a traslado');
    expectIssue(traslado(cartaPorte(), { moneda: 'MXN' }), '/moneda', 'Moneda XXX');
    expectIssue(
      traslado(cartaPorte(), { receiver: { rfc: 'URE180429TM6' } }),
      '/receiver',
      'issued to yourself',
    );
    expectIssue({ ...traslado(), items: [] }, '/items', 'at least one good');
    expectIssue(
      {
        ...traslado(),
        items: [{ productCode: '24101500', unitCode: 'H87', description: 'X', quantity: 1, unitPrice: 5 }],
      },
      '/items/0/unitPrice',
      'without a price',
    );
    const plain = checkTrasladoRequest({ items: traslado().items }, catalogs, { issuer, newUuid });
    expect(plain.issues).toEqual([]);
    const { xml } = buildTrasladoXml(plain.input!, { now: NOW });
    expect(xml).not.toContain('Complemento');
    expect(cadenaOriginal(xml)).toContain('|0|XXX|0|T|01|42501|');
  });

  it('an invoice carries cartaPorte (a carrier), never with comercioExterior', () => {
    const invoice: Json = {
      formaPago: '03',
      usoCfdi: 'G03',
      receiver: {
        rfc: 'URE180429TM6',
        name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
        zip: '86991',
        regimenFiscal: '601',
      },
      items: [
        { productCode: '78101802', unitCode: 'E48', description: 'Flete', quantity: 1, unitPrice: 8500 },
      ],
      cartaPorte: cartaPorte(),
    };
    const ok = checkInvoiceRequest(invoice, catalogs, { issuer, newUuid });
    expect(ok.issues).toEqual([]);
    expect(ok.cartaPorte!.idCCP).toBe('CCC504e0-4f89-41d3-9a0c-0305e82c3301');
    const bad = checkInvoiceRequest(
      { ...invoice, cartaPorte: { ...cartaPorte(), mercancias: [] } },
      catalogs,
      {
        issuer,
        newUuid,
      },
    );
    expect(bad.issues).toContainEqual({
      path: '/cartaPorte/mercancias',
      message: expect.stringContaining('at least one'),
    });
    const both = checkInvoiceRequest({ ...invoice, exportacion: '02', comercioExterior: {} }, catalogs, {
      issuer,
      newUuid,
    });
    expect(both.issues).toContainEqual({
      path: '/cartaPorte',
      message: expect.stringContaining('international'),
    });
  });
});
