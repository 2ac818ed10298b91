/**
 * Request shapes accepted by the engine. Amounts are JSON numbers or decimal strings;
 * the engine converts them with decimal.js and never does float arithmetic on them.
 */
import type { CartaPorteInput, TrasladoItem } from './carta-porte/types';
import type { ComplementDomicilio } from './complement-domicilio';

export type Amount = number | string;

export interface Issuer {
  rfc: string;
  /** Registered name WITHOUT the corporate suffix ("ESCUELA KEMPER URGATE", not "... SA DE CV"). */
  legalName: string;
  regimenFiscal: string;
  /** Postal code of the place of issue (LugarExpedicion). */
  zip: string;
}

export interface Receiver {
  rfc: string;
  name: string;
  zip: string;
  regimenFiscal: string;
  /** c_Pais of a foreign receiver (XEXX010101000): Receptor@ResidenciaFiscal. */
  residenciaFiscal?: string;
  /** The foreign receiver's tax id: Receptor@NumRegIdTrib. */
  numRegIdTrib?: string;
}

export type IvaRate = 0 | 0.08 | 0.16;

export interface InvoiceItem {
  productCode: string;
  unitCode: string;
  description: string;
  quantity: Amount;
  unitPrice: Amount;
  unit?: string;
  noIdentificacion?: string;
  /** Obsolete alias of noIdentificacion; noIdentificacion wins when both are sent. */
  sku?: string;
  /** false → IVA exento (ObjetoImp 02 with an Exento traslado); wins over ivaRate. */
  taxable?: boolean;
  /** 0, 0.08 or 0.16; default 0.16. */
  ivaRate?: Amount;
  /** IEPS Tasa; must be a c_TasaOCuota IEPS traslado value. */
  iepsRate?: Amount;
  /** 15 digits with or without spaces; emitted as "YY  AA  PPPP  NNNNNNN". */
  pedimentos?: string[];
}

export interface Shipping {
  amount: Amount;
  ivaRate?: Amount;
  /** Default 78101800 (transporte de carga por carretera). */
  productCode?: string;
  /** Default E48 (unidad de servicio). */
  unitCode?: string;
  description?: string;
}

export interface InformacionGlobalInput {
  periodicidad: '01' | '02' | '03' | '04' | '05';
  meses: string;
  anio: number;
}

export type InvoiceKind = 'nominal' | 'global';

export interface ConceptsInput {
  items: InvoiceItem[];
  shipping?: Shipping;
  /**
   * Discount on the whole sale, prorated over the items (not shipping). With
   * pricesIncludeTax it is the tax-inclusive amount taken off the customer's charge.
   */
  cartDiscount?: Amount;
  /** Default true: unit prices and the shipping amount include IVA (and IEPS). */
  pricesIncludeTax?: boolean;
  /** c_Moneda decimals of the document's currency (default 2): SubTotal, Descuento, taxes and Total round to them. */
  currencyDecimals?: number;
}

export interface DocumentHeader {
  issuer: Issuer;
  serie?: string;
  /** Internal numeric folio; written as Folio unless folioText is given. */
  folio?: number;
  folioText?: string;
  condicionesDePago?: string;
}

export interface InvoiceInput extends DocumentHeader, ConceptsInput {
  kind?: InvoiceKind;
  /** Ignored for kind 'global' (the receiver is PUBLICO EN GENERAL). */
  receiver?: Receiver;
  metodoPago?: 'PUE' | 'PPD';
  formaPago: string;
  usoCfdi?: string;
  informacionGlobal?: InformacionGlobalInput;
  /** CfdiRelacionados, one per c_TipoRelacion key (e.g. 04 substitution of the UUIDs, 07 application of an advance). */
  relatedDocuments?: RelatedDocuments[];
  /** c_Moneda, default MXN; any other needs tipoCambio and currencyDecimals from the catalog. */
  moneda?: string;
  /** MXN per unit of moneda, up to 6 decimals (absent for MXN). */
  tipoCambio?: string;
  /** c_Exportacion, default 01; 02 carries the Comercio Exterior complement. */
  exportacion?: '01' | '02';
  comercioExterior?: ComercioExteriorInput;
  /** Carta Porte 3.1 of a freight service (a carrier's income invoice); never with comercioExterior. */
  cartaPorte?: CartaPorteInput;
}

export type { ComplementDomicilio } from './complement-domicilio';

/** Comercio Exterior's address: the street is required; the Emisor's country is always MEX. */
export interface CceDomicilio extends ComplementDomicilio {
  calle: string;
}

export interface CceMercancia {
  noIdentificacion: string;
  fraccionArancelaria?: string;
  cantidadAduana?: string;
  unidadAduana?: string;
  /** USD per UnidadAduana, up to 6 decimals. */
  valorUnitarioAduana?: string;
  /** Default round(cantidadAduana × valorUnitarioAduana, 2). */
  valorDolares?: string;
}

/** Comercio Exterior 2.0 (export of goods, ClaveDePedimento A1, Exportacion 02). */
export interface ComercioExteriorInput {
  incoterm?: string;
  /** NumCertificadoOrigen; its presence makes CertificadoOrigen 1. */
  numCertificadoOrigen?: string;
  numeroExportadorConfiable?: string;
  observaciones?: string;
  /** MXN per USD, up to 6 decimals. */
  tipoCambioUSD: string;
  emisor: { curp?: string; domicilio: CceDomicilio };
  receptor: { domicilio: CceDomicilio };
  destinatarios?: Array<{ numRegIdTrib?: string; nombre?: string; domicilios: CceDomicilio[] }>;
  mercancias: CceMercancia[];
}

export interface RelatedDocuments {
  tipoRelacion: string;
  uuids: string[];
}

export interface CreditNoteInput extends DocumentHeader, ConceptsInput {
  receiver: Receiver;
  relatedUuid: string | string[];
  /** 01 nota de crédito (default) or 03 devolución de mercancía. */
  tipoRelacion?: '01' | '03';
  formaPago: string;
  /** Default G02. */
  usoCfdi?: string;
  /** c_Moneda, default MXN; any other needs tipoCambio and currencyDecimals from the catalog. */
  moneda?: string;
  /** MXN per unit of moneda, up to 6 decimals (absent for MXN). */
  tipoCambio?: string;
}

export interface TaxGroup {
  impuesto: '002' | '003';
  tipoFactor: 'Tasa' | 'Exento';
  /** 6-decimal rate string; absent for Exento. */
  tasaOCuota?: string;
  base: string;
  /** Absent for Exento. */
  importe?: string;
}

export interface RelatedInvoice {
  uuid: string;
  serie?: string;
  folio?: string;
  total: Amount;
  /** Document-level traslado groups of the invoice (cfdi:Impuestos/Traslados). */
  taxGroups: TaxGroup[];
  /** The invoice's c_Moneda (MonedaDR), default MXN: Total, the balances and ImpPagado are in it. */
  moneda?: string;
  /** c_Moneda decimals of `moneda` (default 2): ImpSaldoAnt, ImpPagado and ImpSaldoInsoluto round to them. */
  currencyDecimals?: number;
}

export interface PaymentInput {
  issuer: Issuer;
  receiver: Receiver;
  serie?: string;
  folio?: number;
  folioText?: string;
  invoice: RelatedInvoice;
  /** Monto: the money received, in monedaP. */
  monto: Amount;
  /** MonedaP (c_Moneda, never XXX), default MXN. */
  monedaP?: string;
  /** c_Moneda decimals of monedaP (default 2): Monto and the ImpuestosP round to them. */
  monedaPDecimals?: number;
  /** TipoCambioP: MXN per unit of monedaP, up to 6 decimals; absent (written 1) for MXN. */
  tipoCambioP?: string;
  /** EquivalenciaDR: units of the invoice's currency per unit of monedaP, up to 10 decimals; absent (1) when equal. */
  equivalenciaDR?: string;
  /** ImpPagado in the invoice's currency; default monto × equivalenciaDR rounded to the invoice's decimals. */
  impPagado?: Amount;
  numParcialidad: number;
  /** ImpSaldoAnt, in the invoice's currency. */
  saldoAnterior: Amount;
  /** Local date-time without zone, YYYY-MM-DDTHH:MM:SS. */
  fechaPago: string;
  formaPago: string;
  numOperacion?: string;
  /**
   * Σ Total of the credit notes in force that relate the invoice (docs/decisions.md, credit notes and the balance):
   * they reduce what is paid, so the installment that brings the balance to 0 carries the invoice's groups times
   * (Total − credited) / Total.
   */
  credited?: Amount;
  /**
   * Sum of BaseDR/ImporteDR of this invoice in earlier installments, per group, as stamped. Each installment carries
   * the cumulative share minus these, so all installments add up to the invoice's bases and taxes.
   */
  previousInstallments?: Array<
    Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'> & { base: Amount; importe?: Amount }
  >;
}

export interface NominaHorasExtra {
  dias: number;
  /** c_TipoHoras: 01 dobles, 02 triples, 03 simples. */
  tipoHoras: string;
  horasExtra: number;
  importePagado: Amount;
}

export interface NominaPercepcion {
  /** c_TipoPercepcion. */
  tipo: string;
  /** The employer's own code for the concept (3-15 characters). */
  clave: string;
  concepto: string;
  importeGravado: Amount;
  importeExento: Amount;
  /** Required for 019 (horas extra), refused otherwise (NOM204/NOM205). */
  horasExtra?: NominaHorasExtra[];
  /** Required for 045 (acciones o títulos), refused otherwise (NOM202/NOM203). */
  accionesOTitulos?: { valorMercado: Amount; precioAlOtorgarse: Amount };
}

export interface NominaDeduccion {
  /** c_TipoDeduccion; 002 is the ISR withheld. */
  tipo: string;
  clave: string;
  concepto: string;
  importe: Amount;
}

export interface NominaOtroPago {
  /** c_TipoOtroPago. */
  tipo: string;
  clave: string;
  concepto: string;
  importe: Amount;
  /** Required for 002 (subsidio para el empleo): the subsidy the employee was entitled to, at least importe. */
  subsidioCausado?: Amount;
  /** Required for 004 (compensación de saldo a favor). */
  compensacionSaldosAFavor?: { saldoAFavor: Amount; anio: number; remanenteSalFav: Amount };
}

export interface NominaIncapacidad {
  dias: number;
  /** c_TipoIncapacidad. */
  tipo: string;
  importe?: Amount;
}

/** The employee (the CFDI's Receptor and the complement's Receptor). */
export interface NominaEmployee {
  rfc: string;
  name: string;
  /** Fiscal postal code (DomicilioFiscalReceptor). */
  zip: string;
  curp: string;
  numSeguridadSocial?: string;
  /** YYYY-MM-DD; the Antigüedad is computed from it to the end of the period. */
  fechaInicioRelLaboral?: string;
  /** Antigüedad as weeks `P<n>W` (default) or years, months and days `P<y>Y<m>M<d>D`. */
  antiguedadFormat?: 'weeks' | 'ymd';
  tipoContrato: string;
  sindicalizado?: boolean;
  tipoJornada?: string;
  tipoRegimen: string;
  numEmpleado: string;
  departamento?: string;
  puesto?: string;
  riesgoPuesto?: string;
  periodicidadPago: string;
  banco?: string;
  cuentaBancaria?: string;
  salarioBaseCotApor?: Amount;
  salarioDiarioIntegrado?: Amount;
  /** c_Estado of the state where the work is done. */
  claveEntFed: string;
}

export interface NominaPeriod {
  /** O ordinaria, E extraordinaria. */
  tipoNomina: 'O' | 'E';
  fechaPago: string;
  fechaInicialPago: string;
  fechaFinalPago: string;
  numDiasPagados: Amount;
}

/** A payroll receipt as the API accepts it: every total, the Antigüedad and the Comprobante are computed. */
export interface NominaRequest {
  /** Employer's IMSS registration; required for contract types 01-08 (NOM161). */
  registroPatronal?: string;
  /** Employer's CURP: required for a persona física employer, refused for a persona moral (NOM113/NOM114). */
  employerCurp?: string;
  employee: NominaEmployee;
  period: NominaPeriod;
  percepciones?: NominaPercepcion[];
  /** Required with percepciones 022/023/025 (NOM196), refused without them (NOM197). */
  separacionIndemnizacion?: { numAniosServicio: number; ultimoSueldoMensOrd: Amount };
  /** Required with percepciones 039/044 (NOM198): 039 needs ultimoSueldoMensOrd, 044 montoDiario (NOM201). */
  jubilacionPensionRetiro?: { ultimoSueldoMensOrd?: Amount; montoDiario?: Amount };
  deducciones?: NominaDeduccion[];
  otrosPagos?: NominaOtroPago[];
  incapacidades?: NominaIncapacidad[];
  /** Earlier payroll receipts this one replaces (TipoRelacion 04 only), written as CfdiRelacionados. */
  relatedDocuments?: RelatedDocuments[];
}

export interface NominaInput extends NominaRequest {
  issuer: Issuer;
  serie?: string;
  folio?: number;
  folioText?: string;
}

/** "now" is always injected so builders stay deterministic. */
export interface BuildOptions {
  now: Date;
  /** IANA zone of LugarExpedicion; default America/Mexico_City. */
  timeZone?: string;
}

/**
 * Traslado CFDI (T) of the issuer's own goods: the receiver is the issuer itself, Moneda XXX, SubTotal and Total 0,
 * no FormaPago, MetodoPago, Descuento or taxes (CFDI40103/40109/40125), UsoCFDI S01; with Carta Porte when it rides
 * on a public road.
 */
export interface TrasladoInput {
  issuer: Issuer;
  serie?: string;
  folio?: number;
  folioText?: string;
  items: TrasladoItem[];
  relatedDocuments?: RelatedDocuments[];
  cartaPorte?: CartaPorteInput;
}
