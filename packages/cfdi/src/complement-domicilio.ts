/**
 * An address in a complement (Comercio Exterior 2.0 and Carta Porte 3.1 share these attributes): a leaf
 * module, so carta-porte/types.ts and types.ts do not import each other.
 */
export interface ComplementDomicilio {
  calle?: string;
  numeroExterior?: string;
  numeroInterior?: string;
  colonia?: string;
  localidad?: string;
  referencia?: string;
  municipio?: string;
  estado: string;
  /** c_Pais. */
  pais: string;
  codigoPostal: string;
}
