/**
 * Request shapes accepted by the engine. Amounts are JSON numbers or decimal strings;
 * the engine converts them with decimal.js and never does float arithmetic on them.
 */
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
}

export interface PaymentInput {
  issuer: Issuer;
  receiver: Receiver;
  serie?: string;
  folio?: number;
  folioText?: string;
  invoice: RelatedInvoice;
  monto: Amount;
  numParcialidad: number;
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
  previousInstallments?: Array<Pick<TaxGroup, 'impuesto' | 'tipoFactor' | 'tasaOCuota'> & { base: Amount; importe?: Amount }>;
}

export interface NominaPercepcion {
  tipo: string;
  clave: string;
  concepto: string;
  importeGravado: Amount;
  importeExento: Amount;
  horasExtra?: Array<{ dias: number; tipoHoras: '01' | '02' | '03'; horasExtra: number; importePagado: Amount }>;
}

export interface NominaDeduccion {
  tipo: string;
  clave: string;
  concepto: string;
  importe: Amount;
}

export interface NominaOtroPago {
  tipo: string;
  clave: string;
  concepto: string;
  importe: Amount;
  /** Required for tipo 002 (subsidio para el empleo). */
  subsidioCausado?: Amount;
}

export interface NominaIncapacidad {
  dias: number;
  tipo: '01' | '02' | '03' | '04';
  importe?: Amount;
}

export interface NominaEmployee {
  rfc: string;
  name: string;
  zip: string;
  curp: string;
  numSeguridadSocial?: string;
  fechaInicioRelLaboral?: string;
  antiguedad?: string;
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
  claveEntFed: string;
}

export interface NominaInput {
  issuer: Issuer & { registroPatronal?: string; curp?: string };
  employee: NominaEmployee;
  serie?: string;
  folio?: number;
  folioText?: string;
  tipoNomina: 'O' | 'E';
  fechaPago: string;
  fechaInicialPago: string;
  fechaFinalPago: string;
  numDiasPagados: Amount;
  percepciones: NominaPercepcion[];
  deducciones?: NominaDeduccion[];
  otrosPagos?: NominaOtroPago[];
  incapacidades?: NominaIncapacidad[];
}

/** "now" is always injected so builders stay deterministic. */
export interface BuildOptions {
  now: Date;
  /** IANA zone of LugarExpedicion; default America/Mexico_City. */
  timeZone?: string;
}
