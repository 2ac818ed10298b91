import { dec, sum } from '../decimal/money';
import type { CartaPorteInput } from './types';

/** What the builder derives for the XML: the SAT checks each against the rest of the complement. */
export interface ComputedCartaPorte {
  /** TotalDistRec = Σ DistanciaRecorrida of the destinations. */
  totalDistRec: string;
  /** PesoBrutoTotal = Σ PesoEnKg (UnidadPeso KGM), 3 decimals at most. */
  pesoBrutoTotal: string;
  /** NumTotalMercancias = the number of Mercancia nodes. */
  numTotalMercancias: string;
  /** IDUbicacion of each location, in order: given, or OR000001…/DE000001… by kind. */
  idsUbicacion: string[];
}

const IDCCP = /^CCC[a-fA-F0-9]{5}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;

/** IdCCP from a UUID: "CCC" replaces its first three characters, keeping the 36-character 8-4-4-4-12 shape. */
export function newIdCCP(uuid: string): string {
  const id = `CCC${uuid.slice(3)}`;
  if (!IDCCP.test(id)) throw new RangeError(`${uuid} is not a UUID`);
  return id;
}

export const isIdCCP = (v: string): boolean => IDCCP.test(v);

export function computeCartaPorte(cp: CartaPorteInput): ComputedCartaPorte {
  let origins = 0;
  let destinations = 0;
  const idsUbicacion = cp.ubicaciones.map((u) => {
    const n = u.tipo === 'Origen' ? ++origins : ++destinations;
    return u.idUbicacion ?? `${u.tipo === 'Origen' ? 'OR' : 'DE'}${String(n).padStart(6, '0')}`;
  });
  const distances = cp.ubicaciones
    .filter((u) => u.tipo === 'Destino' && u.distanciaRecorrida !== undefined)
    .map((u) => dec(u.distanciaRecorrida!));
  return {
    totalDistRec: sum(distances).toFixed(),
    pesoBrutoTotal: sum(cp.mercancias.map((m) => dec(m.pesoEnKg))).toFixed(),
    numTotalMercancias: String(cp.mercancias.length),
    idsUbicacion,
  };
}
