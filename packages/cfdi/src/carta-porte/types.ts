import type { ComplementDomicilio } from '../complement-domicilio';
/**
 * Carta Porte 3.1 for motor transport (autotransporte) inside Mexico (TranspInternac "No"). Amounts are exact
 * decimal strings as they go into the XML; what the SAT derives (TotalDistRec, PesoBrutoTotal, NumTotalMercancias,
 * IDUbicacion when absent) is computed by the builder.
 */
export interface CartaPorteInput {
  /** IdCCP: "CCC" + the last 33 characters of a UUID (CartaPorte31.xsd pattern); see newIdCCP. */
  idCCP: string;
  ubicaciones: CpUbicacion[];
  mercancias: CpMercancia[];
  autotransporte: CpAutotransporte;
  figuras: CpFigura[];
}

/** A Carta Porte address; for Pais MEX the SAT keys (c_Estado, c_Municipio, c_Localidad, c_Colonia, c_CodigoPostal). */
/** Carta Porte's address (its country defaults to MEX when the request omits it). */
export type CpDomicilio = ComplementDomicilio;

export interface CpUbicacion {
  tipo: 'Origen' | 'Destino';
  /** OR + 6 digits for an origin, DE + 6 digits for a destination; numbered in order when absent. */
  idUbicacion?: string;
  /** RFCRemitenteDestinatario: the sender (origin) or the addressee (destination). */
  rfc: string;
  nombre?: string;
  /** With rfc XEXX010101000: the foreign tax id and its country. */
  numRegIdTrib?: string;
  residenciaFiscal?: string;
  /** FechaHoraSalidaLlegada, "YYYY-MM-DDThh:mm:ss": departure from an origin, arrival at a destination. */
  fechaHora: string;
  /** Km from the previous location, destinations only (0.01 to 99999). */
  distanciaRecorrida?: string;
  domicilio: CpDomicilio;
}

export interface CpMercancia {
  /** c_ClaveProdServCP. */
  bienesTransp: string;
  descripcion: string;
  cantidad: string;
  /** c_ClaveUnidad. */
  claveUnidad: string;
  unidad?: string;
  /** "30/40/30cm" or "plg". */
  dimensiones?: string;
  /** MaterialPeligroso "Sí"/"No"; true needs cveMaterialPeligroso and embalaje. */
  materialPeligroso?: boolean;
  cveMaterialPeligroso?: string;
  embalaje?: string;
  descripEmbalaje?: string;
  /** Kilograms, up to 3 decimals. */
  pesoEnKg: string;
  valorMercancia?: string;
  moneda?: string;
}

export interface CpAutotransporte {
  /** c_TipoPermiso (TPAF01…TPAF20, TPXX00). */
  permSCT: string;
  numPermisoSCT: string;
  /** c_ConfigAutotransporte. */
  configVehicular: string;
  /** Tonnes, up to 2 decimals. */
  pesoBrutoVehicular: string;
  placaVM: string;
  anioModeloVM: number;
  seguros: {
    aseguraRespCivil: string;
    polizaRespCivil: string;
    aseguraMedAmbiente?: string;
    polizaMedAmbiente?: string;
    aseguraCarga?: string;
    polizaCarga?: string;
    primaSeguro?: string;
  };
  /** Up to two trailers: c_SubTipoRem and plate. */
  remolques?: Array<{ subTipoRem: string; placa: string }>;
}

export interface CpFigura {
  /** c_FiguraTransporte: 01 operador, 02 propietario, 03 arrendador, 04 notificado, 05 integrante de coordinados. */
  tipoFigura: string;
  rfc?: string;
  /** Driver's licence, 6 to 16 characters (required for an operador). */
  numLicencia?: string;
  nombre: string;
  numRegIdTrib?: string;
  residenciaFiscal?: string;
  /** c_ParteTransporte keys (propietario and arrendador). */
  partesTransporte?: string[];
  domicilio?: CpDomicilio;
}

/** A good moved by a traslado CFDI: always ValorUnitario 0 and ObjetoImp 01. */
export interface TrasladoItem {
  productCode: string;
  unitCode: string;
  description: string;
  quantity: string;
  unit?: string;
  noIdentificacion?: string;
}
