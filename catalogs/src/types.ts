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

/** The CFDI engine's injected catalog interface (packages/cfdi/src/validation/catalog-lookup.ts). */
export type { CartaPorteCatalog, CatalogLookup, ComercioExteriorCatalog } from '@cfdi/cfdi';
