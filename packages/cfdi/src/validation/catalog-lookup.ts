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
}
