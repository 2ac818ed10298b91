/** Response shapes of the catalog endpoints (api-spec "Catalog entries"). */
export interface ProductEntry {
  clave: string;
  nombre: string;
}

export interface UnitEntry {
  clave: string;
  nombre: string;
  simbolo: string | null;
}

export interface UsoCfdiEntry {
  clave: string;
  nombre: string;
  fisica: boolean;
  moral: boolean;
}

export interface RegimenEntry {
  clave: string;
  nombre: string;
  fisica: boolean;
  moral: boolean;
}

export interface FormaPagoEntry {
  clave: string;
  nombre: string;
}

/** Catalog facts the CFDI engine's fiscal validation needs; synchronous so validation stays pure. */
export interface CatalogLookup {
  hasProductCode(clave: string): boolean;
  hasUnitCode(clave: string): boolean;
  usoCfdi(clave: string): { fisica: boolean; moral: boolean; regimenesReceptor: string[] } | undefined;
  regimen(clave: string): { fisica: boolean; moral: boolean } | undefined;
  hasFormaPago(clave: string): boolean;
}
