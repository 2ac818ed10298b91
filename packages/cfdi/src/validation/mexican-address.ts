import { ESTADOS_MEX } from '../nomina/catalogs';
import { isString, type Issues, type Obj } from './issues';

/**
 * The SAT's own keys of an address in Mexico, as the complements write it (Carta Porte's and Comercio Exterior's
 * Domicilio): c_Estado, a 5-digit c_CodigoPostal, and c_Municipio, c_Localidad and c_Colonia when given.
 */
export function checkMexicanAddressKeys(issues: Issues, path: string, d: Obj): void {
  if (isString(d.estado) && !ESTADOS_MEX.keys.includes(d.estado))
    issues.add(`${path}/estado`, 'must be a c_Estado key of a Mexican state, e.g. JAL, CMX, NLE');
  if (isString(d.codigoPostal) && !/^[0-9]{5}$/.test(d.codigoPostal))
    issues.add(`${path}/codigoPostal`, 'must be a 5-digit c_CodigoPostal');
  if (d.municipio !== undefined && !(isString(d.municipio) && /^[0-9]{3}$/.test(d.municipio)))
    issues.add(`${path}/municipio`, 'must be a 3-digit c_Municipio key');
  if (d.localidad !== undefined && !(isString(d.localidad) && /^[0-9]{2}$/.test(d.localidad)))
    issues.add(`${path}/localidad`, 'must be a 2-digit c_Localidad key');
  if (d.colonia !== undefined && !(isString(d.colonia) && /^[0-9]{4}$/.test(d.colonia)))
    issues.add(`${path}/colonia`, 'must be a 4-digit c_Colonia key');
}
