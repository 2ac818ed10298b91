import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT, MAX_QUANTITY } from '@cfdi/services';
import { StringEnum } from './common';
import { named } from '../openapi-components';

const Text = (min: number, max: number, description?: string) =>
  Type.String({ minLength: min, maxLength: max, pattern: '^[^|]*$', description });
const Rfc = (description: string) =>
  Type.String({ pattern: '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$', description });
const Positive = (description: string, maximum = MAX_QUANTITY) =>
  Type.Number({ exclusiveMinimum: 0, maximum, description });

/** A Carta Porte address: for pais MEX (the default) the SAT's keys. */
const Domicilio = Type.Object(
  {
    calle: Type.Optional(Text(1, 100)),
    numeroExterior: Type.Optional(Text(1, 55)),
    numeroInterior: Type.Optional(Text(1, 55)),
    colonia: Type.Optional(Text(1, 120)),
    localidad: Type.Optional(Text(1, 120)),
    referencia: Type.Optional(Text(1, 250)),
    municipio: Type.Optional(Text(1, 120)),
    estado: Text(1, 30),
    pais: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'c_Pais key, default MEX' })),
    codigoPostal: Text(1, 12),
  },
  { additionalProperties: false },
);

const Ubicacion = Type.Object(
  {
    tipo: StringEnum(['Origen', 'Destino'], {
      description: 'Origen (where the goods leave from; the first stop) or Destino',
    }),
    idUbicacion: Type.Optional(
      Type.String({
        pattern: '^(OR|DE)[0-9]{6}$',
        description: 'OR + 6 digits for an origin, DE + 6 digits for a destination; numbered when left out',
      }),
    ),
    rfc: Rfc('RFC of the sender (Origen) or addressee (Destino); XEXX010101000 for a foreign party'),
    nombre: Type.Optional(Text(1, 254, 'Name of the sender or addressee')),
    numRegIdTrib: Type.Optional(Text(6, 40, 'With XEXX010101000: the foreign tax id')),
    residenciaFiscal: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'With XEXX010101000: its country (c_Pais)' }),
    ),
    fechaHora: Type.String({
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$',
      description:
        'Local departure (Origen) or arrival (Destino), YYYY-MM-DDTHH:MM:SS, in the order travelled',
    }),
    distanciaRecorrida: Type.Optional(
      Positive('Destino only: km from the previous location, 0.01 to 99999', 99999),
    ),
    domicilio: Domicilio,
  },
  { additionalProperties: false },
);

const Mercancia = Type.Object(
  {
    bienesTransp: Type.String({ pattern: '^[0-9]{8}$', description: 'c_ClaveProdServCP key of the good' }),
    descripcion: Text(1, 1000, 'What the good is'),
    cantidad: Positive('Quantity, up to 6 decimals'),
    claveUnidad: Type.String({ minLength: 1, maxLength: 5, description: 'c_ClaveUnidad key' }),
    unidad: Type.Optional(Text(1, 20, 'Unit as printed')),
    dimensiones: Type.Optional(
      Type.String({ description: 'Length/width/height with cm or plg, e.g. 30/40/30cm' }),
    ),
    materialPeligroso: Type.Optional(
      Type.Boolean({ description: 'true for a hazardous material: cveMaterialPeligroso and embalaje then' }),
    ),
    cveMaterialPeligroso: Type.Optional(
      Type.String({ minLength: 4, maxLength: 4, description: 'c_MaterialPeligroso key (UN number)' }),
    ),
    embalaje: Type.Optional(Type.String({ minLength: 1, maxLength: 4, description: 'c_TipoEmbalaje key' })),
    descripEmbalaje: Type.Optional(Text(1, 100, 'Packaging as described')),
    pesoEnKg: Positive('Weight in kg, up to 3 decimals'),
    valorMercancia: Type.Optional(
      Type.Number({ minimum: 0, maximum: MAX_AMOUNT, description: 'Value of the good, with moneda' }),
    ),
    moneda: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'c_Moneda of valorMercancia' })),
  },
  { additionalProperties: false },
);

const Seguros = Type.Object(
  {
    aseguraRespCivil: Text(3, 50, 'Civil liability insurer'),
    polizaRespCivil: Text(3, 30, 'Civil liability policy'),
    aseguraMedAmbiente: Type.Optional(Text(3, 50, 'Environmental insurer: required with hazardous goods')),
    polizaMedAmbiente: Type.Optional(Text(3, 30, 'Environmental policy')),
    aseguraCarga: Type.Optional(Text(3, 50, 'Cargo insurer')),
    polizaCarga: Type.Optional(Text(3, 30, 'Cargo policy')),
    primaSeguro: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: MAX_AMOUNT,
        description: 'Premium charged for the cargo insurance',
      }),
    ),
  },
  { additionalProperties: false, description: 'Insurance of the vehicle and the load' },
);

const Autotransporte = Type.Object(
  {
    permSCT: Type.String({
      minLength: 6,
      maxLength: 6,
      description: 'c_TipoPermiso key of motor transport (TPAF01…TPAF20, TPXX00)',
    }),
    numPermisoSCT: Text(1, 50, 'The SCT permit number'),
    configVehicular: Type.String({
      minLength: 2,
      maxLength: 8,
      description: 'c_ConfigAutotransporte key (C2, C3, T3S2…)',
    }),
    pesoBrutoVehicular: Positive('Gross vehicle weight in tonnes, up to 2 decimals'),
    placaVM: Type.String({ pattern: '^[A-Z0-9]{5,7}$', description: 'Plate, no spaces or hyphens' }),
    anioModeloVM: Type.Integer({ minimum: 1900, maximum: 2099, description: 'Model year' }),
    seguros: Seguros,
    remolques: Type.Optional(
      Type.Array(
        Type.Object(
          {
            subTipoRem: Type.String({
              minLength: 6,
              maxLength: 6,
              description: 'c_SubTipoRem key (CTR004…)',
            }),
            placa: Type.String({ pattern: '^[A-Z0-9]{5,7}$', description: "The trailer's plate" }),
          },
          { additionalProperties: false },
        ),
        {
          minItems: 1,
          maxItems: 2,
          description: 'Trailers: required with a C…R…/T…S… configuration, absent with C2, C3, VL',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'The vehicle (Autotransporte)' },
);

const Figura = Type.Object(
  {
    tipoFigura: StringEnum(['01', '02', '03', '04', '05'], {
      description: 'c_FiguraTransporte: 01 operador (required), 02 propietario, 03 arrendador, 04 notificado',
    }),
    rfc: Type.Optional(Rfc('RFC of the party; required for the operador')),
    numLicencia: Type.Optional(Text(6, 16, "Operador only: the driver's licence")),
    nombre: Text(1, 254, 'Name of the party'),
    numRegIdTrib: Type.Optional(Text(6, 40, 'A foreign party without rfc: its tax id')),
    residenciaFiscal: Type.Optional(
      Type.String({ pattern: '^[A-Z]{3}$', description: 'A foreign party without rfc: its c_Pais' }),
    ),
    partesTransporte: Type.Optional(
      Type.Array(Type.String({ pattern: '^PT[0-9]{2}$' }), {
        minItems: 1,
        maxItems: 12,
        description: 'Propietario and arrendador: the c_ParteTransporte keys they own or lease (PT01…)',
      }),
    ),
    domicilio: Type.Optional(Domicilio),
  },
  { additionalProperties: false },
);

/** One example of the complement (a single stop, one good, a rigid truck): also the API guide's. */
export const CARTA_PORTE_EXAMPLE = {
  ubicaciones: [
    {
      tipo: 'Origen',
      rfc: 'EKU9003173C9',
      fechaHora: '2026-11-27T08:00:00',
      domicilio: { estado: 'HID', codigoPostal: '42501' },
    },
    {
      tipo: 'Destino',
      rfc: 'URE180429TM6',
      fechaHora: '2026-11-27T18:30:00',
      distanciaRecorrida: 820.5,
      domicilio: { estado: 'TAB', codigoPostal: '86991' },
    },
  ],
  mercancias: [
    { bienesTransp: '24101500', descripcion: 'Montacargas', cantidad: 2, claveUnidad: 'H87', pesoEnKg: 3500 },
  ],
  autotransporte: {
    permSCT: 'TPAF01',
    numPermisoSCT: 'SCT-0001',
    configVehicular: 'C3',
    pesoBrutoVehicular: 18.5,
    placaVM: 'ABC1234',
    anioModeloVM: 2022,
    seguros: { aseguraRespCivil: 'SEGUROS SA', polizaRespCivil: 'POL-12345' },
  },
  figuras: [
    { tipoFigura: '01', rfc: 'FUNK671228PH6', numLicencia: 'LIC123456', nombre: 'KARLA FUENTE NOLASCO' },
  ],
};

/**
 * Carta Porte 3.1 of a carrier's freight invoice: national motor transport (TranspInternac No). The server computes
 * IdCCP, TotalDistRec, PesoBrutoTotal and NumTotalMercancias; when sent, they must equal the computation.
 */
export const CartaPorteSchema = named(
  'CartaPorte',
  Type.Object(
    {
      idCCP: Type.Optional(
        Type.String({
          pattern: '^CCC[a-fA-F0-9]{5}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$',
          description: 'IdCCP: CCC + the last 33 characters of a UUID; generated once when left out',
        }),
      ),
      transpInternac: Type.Optional(
        Type.Literal('No', { description: 'Only No: international transport is not supported' }),
      ),
      totalDistRec: Type.Optional(
        Type.Number({
          minimum: 0,
          description: "Σ the destinations' distanciaRecorrida; computed when left out",
        }),
      ),
      pesoBrutoTotal: Type.Optional(
        Type.Number({ minimum: 0, description: "Σ the goods' pesoEnKg (KGM); computed when left out" }),
      ),
      numTotalMercancias: Type.Optional(
        Type.Integer({ minimum: 1, description: 'The number of goods; computed when left out' }),
      ),
      ubicaciones: Type.Array(Ubicacion, {
        minItems: 2,
        maxItems: 100,
        description: 'Stops in the order travelled: an Origen first, then at least one Destino',
      }),
      mercancias: Type.Array(Mercancia, {
        minItems: 1,
        maxItems: 500,
        description: 'The goods carried (Mercancias/Mercancia)',
      }),
      autotransporte: Autotransporte,
      figuras: Type.Array(Figura, {
        minItems: 1,
        maxItems: 20,
        description: 'FiguraTransporte: the operador (01) at least',
      }),
    },
    {
      additionalProperties: false,
      description: 'Carta Porte 3.1 of a freight invoice',
      examples: [CARTA_PORTE_EXAMPLE],
    },
  ),
);

const Stop = (description: string) =>
  Type.Object(
    {
      idUbicacion: Type.String({ description: 'IDUbicacion (OR000001…, DE000001…)' }),
      rfc: Type.String({ description: 'RFCRemitenteDestinatario: the sender or addressee' }),
      nombre: Type.Union([Type.String(), Type.Null()], { description: 'Its name; null when not sent' }),
      fechaHora: Type.String({ description: 'FechaHoraSalidaLlegada: departure or arrival, local time' }),
      estado: Type.String({ description: 'c_Estado of its address' }),
      codigoPostal: Type.String({ description: 'Postal code of its address' }),
      distanciaRecorrida: Type.Union([Type.Number(), Type.Null()], {
        description: 'Km from the previous stop (a Destino); null for an Origen',
      }),
    },
    { description },
  );

/** What the Invoice and Traslado resources show of a document's Carta Porte: the trip in brief. */
export const CartaPorteSummarySchema = named(
  'CartaPorteSummary',
  Type.Object(
    {
      idCCP: Type.String({ description: 'IdCCP as stamped: generated once when the document was created' }),
      totalDistRec: Type.Number({ description: "TotalDistRec: km, Σ the destinations' distanciaRecorrida" }),
      pesoBrutoTotal: Type.Number({ description: "PesoBrutoTotal: kg, Σ the goods' pesoEnKg" }),
      numTotalMercancias: Type.Integer({ description: 'NumTotalMercancias: the number of goods carried' }),
      origin: Stop('The first stop: the Origen the goods leave from'),
      destination: Stop('The last stop: the Destino reached last'),
      stops: Type.Integer({ description: 'How many stops (origins and destinations) the trip has' }),
    },
    {
      description:
        'The Carta Porte 3.1 of the document in brief (its stops, goods and figures are in the XML)',
    },
  ),
);
