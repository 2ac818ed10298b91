/** c_Impuesto keys the engine transfers: 002 IVA, 003 IEPS. */
export type Impuesto = '002' | '003';

/** Output of the tax engine: every amount is a decimal string exactly as it goes into the XML. */
export interface ComputedTax {
  base: string;
  impuesto: Impuesto;
  tipoFactor: 'Tasa' | 'Exento';
  tasaOCuota?: string;
  importe?: string;
}

export interface ComputedConcept {
  claveProdServ: string;
  noIdentificacion?: string;
  cantidad: string;
  claveUnidad: string;
  unidad?: string;
  descripcion: string;
  valorUnitario: string;
  importe: string;
  descuento?: string;
  objetoImp: string;
  traslados: ComputedTax[];
  /** NumeroPedimento values in the 21-character SAT format. */
  pedimentos: string[];
}

export interface ComputedGroup {
  impuesto: Impuesto;
  tipoFactor: 'Tasa' | 'Exento';
  tasaOCuota?: string;
  base: string;
  importe?: string;
}

export interface ComputedInvoice {
  concepts: ComputedConcept[];
  subTotal: string;
  descuento?: string;
  totalImpuestosTrasladados?: string;
  total: string;
  traslados: ComputedGroup[];
  /**
   * With tax-inclusive prices: what the customer was charged (Σ quantity × price + shipping −
   * cartDiscount, rounded to cents). `total` equals it unless no 0.000001 adjustment could reach it.
   */
  chargedTotal?: string;
}
