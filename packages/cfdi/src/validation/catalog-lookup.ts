/**
 * Catalog membership is injected: the catalogs team implements this from the SAT data
 * (shared/sat/catalogs). Keeping it an interface keeps this package free of I/O.
 */
export interface UsoCfdiEntry {
  fisica: boolean;
  moral: boolean;
  /** c_RegimenFiscal keys allowed for the receiver with this use. */
  regimenesReceptor: string[];
}

export interface RegimenEntry {
  fisica: boolean;
  moral: boolean;
}

export interface CatalogLookup {
  hasProductCode(code: string): boolean;
  hasUnitCode(code: string): boolean;
  usoCfdi(code: string): UsoCfdiEntry | undefined;
  regimen(code: string): RegimenEntry | undefined;
  hasFormaPago(code: string): boolean;
  moneda(code: string): MonedaEntry | undefined;
  pais(code: string): PaisEntry | undefined;
  hasComercioExteriorKey(catalog: ComercioExteriorCatalog, code: string): boolean;
  hasCartaPorteKey(catalog: CartaPorteCatalog, code: string): boolean;
}

export interface MonedaEntry {
  /** c_Moneda decimales: the places of SubTotal, Descuento, taxes and Total in that currency. */
  decimales: number;
  /** c_Moneda porcentaje_variacion: how far (in %) TipoCambio may stray from the published rate (CFDI40118). */
  variacion: number;
}

export interface PaisEntry {
  /** c_Pais "formato de registro de identidad tributaria" (a regular expression), '' when the SAT gives none. */
  patronIdentidadTributaria: string;
}

/** The Comercio Exterior catalogs (catComExt): c_INCOTERM, c_UnidadAduana, c_FraccionArancelaria. */
export type ComercioExteriorCatalog = 'incoterms' | 'unidades-aduana' | 'fracciones-arancelarias';

/** The large Carta Porte catalogs (catCartaPorte.xsd): c_ClaveProdServCP and c_MaterialPeligroso. */
export type CartaPorteCatalog = 'productos-carta-porte' | 'materiales-peligrosos';
