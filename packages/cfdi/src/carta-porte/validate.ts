import { dec, sum } from '../decimal/money';
import { checkMexicanAddressKeys } from '../validation/mexican-address';
import type { CatalogLookup } from '../validation/catalog-lookup';
import {
  checkPositive,
  checkText,
  decimals,
  isNumberLike,
  isString,
  type Issues,
  type Obj,
  isObject,
} from '../validation/issues';
import { RFC_EXTRANJERO, RFC_PATTERN } from '../validation/rfc';
import { FIGURAS_TRANSPORTE, PARTES_TRANSPORTE, TIPOS_EMBALAJE } from './catalogs';
import { isIdCCP, newIdCCP } from './compute';
import { amount, autotransporteInput, checkAutotransporte } from './validate-autotransporte';
import { domicilioInput } from '../xml/complement-address';
import type { CartaPorteInput, CpDomicilio, CpFigura, CpMercancia, CpUbicacion } from './types';

const FECHA_H =
  /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;
const DIMENSIONES = /^([0-9]{1,3}[/]){2}[0-9]{1,3}(cm|plg)$/;

export interface CartaPorteOptions {
  /** A new UUID for IdCCP when the request sends none (crypto.randomUUID in the service). */
  newUuid: () => string;
}

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));

/**
 * Carta Porte 3.1 of national motor transport: the rules of the SAT's CartaPorte31 validation matrix a server checks
 * without the SAT's lists (schema facets, catalog keys of the subset shipped, origins and destinations with their
 * order in time, each destination's distance and TotalDistRec as their sum, PesoBrutoTotal = Σ PesoEnKg,
 * NumTotalMercancias = the number of goods, hazardous material with its key and packaging, the environmental
 * insurance it needs, trailers the configuration pulls, the driver's RFC and licence). Returns the engine input,
 * IdCCP generated when absent, or undefined with the problems in `issues`.
 */
export function checkCartaPorte(
  issues: Issues,
  value: unknown,
  catalogs: CatalogLookup,
  options: CartaPorteOptions,
  at = '/cartaPorte',
): CartaPorteInput | undefined {
  if (!isObject(value)) {
    issues.add(at, 'must be an object {ubicaciones, mercancias, autotransporte, figuras}');
    return undefined;
  }
  const before = issues.list.length;
  if (value.idCCP !== undefined && !(isString(value.idCCP) && isIdCCP(value.idCCP)))
    issues.add(
      `${at}/idCCP`,
      'must be CCC followed by the last 33 characters of a UUID (CCCxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx); or leave it out and it is generated',
    );
  if (value.transpInternac !== undefined && value.transpInternac !== 'No')
    issues.add(`${at}/transpInternac`, 'must be No: international transport is not supported yet');
  const ubicaciones = checkUbicaciones(issues, value.ubicaciones, catalogs, `${at}/ubicaciones`);
  if (ubicaciones && value.totalDistRec !== undefined) {
    const total = sum(ubicaciones.filter((u) => u.tipo === 'Destino').map((u) => dec(u.distanciaRecorrida!)));
    if (!isNumberLike(value.totalDistRec) || !dec(value.totalDistRec).equals(total))
      issues.add(
        `${at}/totalDistRec`,
        `must be the sum of the destinations' distanciaRecorrida, ${total.toFixed()} (TotalDistRec); or leave it out and it is computed`,
      );
  }
  const mercancias = checkMercancias(issues, value.mercancias, catalogs, `${at}/mercancias`);
  if (mercancias) {
    const peso = sum(mercancias.map((m) => dec(m.pesoEnKg)));
    if (
      value.pesoBrutoTotal !== undefined &&
      (!isNumberLike(value.pesoBrutoTotal) || !dec(value.pesoBrutoTotal).equals(peso))
    )
      issues.add(
        `${at}/pesoBrutoTotal`,
        `must be the sum of the goods' pesoEnKg, ${peso.toFixed()} (PesoBrutoTotal in KGM); or leave it out and it is computed`,
      );
    if (value.numTotalMercancias !== undefined && value.numTotalMercancias !== mercancias.length)
      issues.add(
        `${at}/numTotalMercancias`,
        `must be the number of goods, ${mercancias.length} (NumTotalMercancias); or leave it out and it is computed`,
      );
  }
  const hazardous = mercancias?.some((m) => m.materialPeligroso === true) ?? false;
  checkAutotransporte(issues, value.autotransporte, hazardous, `${at}/autotransporte`);
  checkFiguras(issues, value.figuras, catalogs, `${at}/figuras`);
  if (issues.list.length !== before || !ubicaciones || !mercancias) return undefined;
  return {
    idCCP: isString(value.idCCP) ? value.idCCP : newIdCCP(options.newUuid()),
    ubicaciones,
    mercancias,
    autotransporte: autotransporteInput(value.autotransporte as Obj),
    figuras: (value.figuras as Obj[]).map(figuraInput),
  };
}

function checkUbicaciones(
  issues: Issues,
  value: unknown,
  catalogs: CatalogLookup,
  at: string,
): CpUbicacion[] | undefined {
  if (!Array.isArray(value) || value.length < 2) {
    issues.add(at, 'is required: at least one Origen and one Destino');
    return undefined;
  }
  const before = issues.list.length;
  const seenIds = new Map<string, number>();
  value.forEach((u, i) => checkUbicacion(issues, u, catalogs, `${at}/${i}`, seenIds, i));
  if (issues.list.length !== before) return undefined;
  const list = value as Obj[];
  if (!list.some((u) => u.tipo === 'Origen') || !list.some((u) => u.tipo === 'Destino')) {
    issues.add(at, 'must have at least one Origen and one Destino');
    return undefined;
  }
  if (list[0]!.tipo !== 'Origen') {
    issues.add(`${at}/0/tipo`, 'must be Origen: the trip starts at an origin');
    return undefined;
  }
  // Time order: each destination after the departures listed before it, destinations in the order reached.
  let lastOrigin = '';
  let lastDestination = '';
  list.forEach((u, i) => {
    const when = u.fechaHora as string;
    if (u.tipo === 'Origen') {
      if (when > lastOrigin) lastOrigin = when;
      return;
    }
    if (when <= lastOrigin)
      issues.add(
        `${at}/${i}/fechaHora`,
        `must be later than the departure from the origins before it (${lastOrigin})`,
      );
    else if (when < lastDestination)
      issues.add(
        `${at}/${i}/fechaHora`,
        `must not be earlier than the arrival at the previous destination (${lastDestination}): list destinations in the order reached`,
      );
    lastDestination = when;
  });
  const total = sum(list.filter((u) => u.tipo === 'Destino').map((u) => dec(amount(u.distanciaRecorrida))));
  if (total.gt(99999))
    issues.add(at, `the distances add up to ${total.toFixed()} km: TotalDistRec is at most 99999`);
  if (issues.list.length !== before) return undefined;
  return list.map((u) => ({
    tipo: u.tipo as 'Origen' | 'Destino',
    ...(u.idUbicacion !== undefined ? { idUbicacion: String(u.idUbicacion) } : {}),
    rfc: String(u.rfc),
    ...(u.nombre !== undefined ? { nombre: String(u.nombre) } : {}),
    ...(u.numRegIdTrib !== undefined ? { numRegIdTrib: String(u.numRegIdTrib) } : {}),
    ...(u.residenciaFiscal !== undefined ? { residenciaFiscal: String(u.residenciaFiscal) } : {}),
    fechaHora: String(u.fechaHora),
    ...(u.distanciaRecorrida !== undefined ? { distanciaRecorrida: amount(u.distanciaRecorrida) } : {}),
    domicilio: cpDomicilio(u.domicilio as Obj),
  }));
}

function checkUbicacion(
  issues: Issues,
  u: unknown,
  catalogs: CatalogLookup,
  at: string,
  seenIds: Map<string, number>,
  index: number,
): void {
  if (!isObject(u)) return issues.add(at, 'must be an object');
  if (u.tipo !== 'Origen' && u.tipo !== 'Destino')
    return issues.add(`${at}/tipo`, 'must be Origen or Destino');
  const prefix = u.tipo === 'Origen' ? 'OR' : 'DE';
  if (u.idUbicacion !== undefined) {
    if (!isString(u.idUbicacion) || !new RegExp(`^${prefix}[0-9]{6}$`).test(u.idUbicacion))
      issues.add(`${at}/idUbicacion`, `must be ${prefix} followed by 6 digits for an ${u.tipo}`);
    else if (seenIds.has(u.idUbicacion))
      issues.add(`${at}/idUbicacion`, `repeats location ${seenIds.get(u.idUbicacion)}'s id`);
    else seenIds.set(u.idUbicacion, index);
  }
  checkRfcWithForeign(issues, at, 'rfc', u.rfc, u.numRegIdTrib, u.residenciaFiscal, catalogs);
  checkText(issues, `${at}/nombre`, u.nombre, 254, false);
  if (!isString(u.fechaHora) || !FECHA_H.test(u.fechaHora) || Number.isNaN(Date.parse(`${u.fechaHora}Z`)))
    issues.add(
      `${at}/fechaHora`,
      'is required: the local date-time of departure (Origen) or arrival (Destino), YYYY-MM-DDTHH:MM:SS',
    );
  if (u.tipo === 'Origen') {
    if (u.distanciaRecorrida !== undefined)
      issues.add(
        `${at}/distanciaRecorrida`,
        'must be absent on an Origen: the distance goes on each Destino',
      );
  } else if (checkPositive(issues, `${at}/distanciaRecorrida`, u.distanciaRecorrida, 2)) {
    if (Number(u.distanciaRecorrida) < 0.01 || Number(u.distanciaRecorrida) > 99999)
      issues.add(`${at}/distanciaRecorrida`, 'must be from 0.01 to 99999 km');
  }
  checkDomicilio(issues, `${at}/domicilio`, u.domicilio, catalogs, true);
}

/** An RFC, or XEXX010101000 with the foreign tax id and country. */
function checkRfcWithForeign(
  issues: Issues,
  at: string,
  field: string,
  rfc: unknown,
  numRegIdTrib: unknown,
  residenciaFiscal: unknown,
  catalogs: CatalogLookup,
): void {
  if (!isString(rfc) || !RFC_PATTERN.test(rfc))
    return issues.add(`${at}/${field}`, 'is required: a valid RFC (XEXX010101000 for a foreign party)');
  checkText(issues, `${at}/numRegIdTrib`, numRegIdTrib, 40, false);
  if (rfc !== RFC_EXTRANJERO) {
    if (numRegIdTrib !== undefined || residenciaFiscal !== undefined)
      issues.add(
        `${at}/${field}`,
        'must be XEXX010101000 with numRegIdTrib and residenciaFiscal (foreign parties only)',
      );
    return;
  }
  if (numRegIdTrib === undefined) issues.add(`${at}/numRegIdTrib`, 'is required with XEXX010101000');
  else if (isString(numRegIdTrib) && numRegIdTrib.trim().length < 6)
    issues.add(`${at}/numRegIdTrib`, 'must have 6 to 40 characters');
  if (!isString(residenciaFiscal) || !catalogs.pais(residenciaFiscal) || residenciaFiscal === 'MEX')
    issues.add(`${at}/residenciaFiscal`, 'is required with XEXX010101000: a c_Pais key other than MEX');
}

function checkDomicilio(
  issues: Issues,
  at: string,
  d: unknown,
  catalogs: CatalogLookup,
  required: boolean,
): void {
  if (d === undefined && !required) return;
  if (!isObject(d)) return issues.add(at, 'is required: {estado, codigoPostal, pais, calle?, municipio?, …}');
  checkText(issues, `${at}/calle`, d.calle, 100, false);
  checkText(issues, `${at}/numeroExterior`, d.numeroExterior, 55, false);
  checkText(issues, `${at}/numeroInterior`, d.numeroInterior, 55, false);
  checkText(issues, `${at}/referencia`, d.referencia, 250, false);
  checkText(issues, `${at}/estado`, d.estado, 30, true);
  checkText(issues, `${at}/codigoPostal`, d.codigoPostal, 12, true);
  const pais = d.pais ?? 'MEX';
  if (!isString(pais) || !catalogs.pais(pais))
    return issues.add(`${at}/pais`, `${String(pais)} is not a c_Pais key`);
  if (pais !== 'MEX') {
    checkText(issues, `${at}/colonia`, d.colonia, 120, false);
    checkText(issues, `${at}/localidad`, d.localidad, 120, false);
    checkText(issues, `${at}/municipio`, d.municipio, 120, false);
    return;
  }
  checkMexicanAddressKeys(issues, at, d);
}

const cpDomicilio = (d: Obj): CpDomicilio => domicilioInput(d, d.pais === undefined ? 'MEX' : String(d.pais));

function checkMercancias(
  issues: Issues,
  value: unknown,
  catalogs: CatalogLookup,
  at: string,
): CpMercancia[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    issues.add(
      at,
      'is required: at least one good {bienesTransp, descripcion, cantidad, claveUnidad, pesoEnKg}',
    );
    return undefined;
  }
  const before = issues.list.length;
  value.forEach((m, i) => checkMercancia(issues, m, catalogs, `${at}/${i}`));
  if (issues.list.length !== before) return undefined;
  return (value as Obj[]).map((m) => {
    const out: Record<string, unknown> = {};
    for (const k of [
      'bienesTransp',
      'descripcion',
      'claveUnidad',
      'unidad',
      'dimensiones',
      'cveMaterialPeligroso',
      'embalaje',
      'descripEmbalaje',
      'moneda',
    ])
      if (m[k] !== undefined) out[k] = String(m[k]);
    for (const k of ['cantidad', 'pesoEnKg', 'valorMercancia']) if (m[k] !== undefined) out[k] = amount(m[k]);
    if (m.materialPeligroso !== undefined) out.materialPeligroso = m.materialPeligroso;
    return out as unknown as CpMercancia;
  });
}

function checkMercancia(issues: Issues, m: unknown, catalogs: CatalogLookup, at: string): void {
  if (!isObject(m)) return issues.add(at, 'must be an object');
  if (!isString(m.bienesTransp) || !catalogs.hasCartaPorteKey('productos-carta-porte', m.bienesTransp))
    issues.add(`${at}/bienesTransp`, `${String(m.bienesTransp)} is not a c_ClaveProdServCP key`);
  checkText(issues, `${at}/descripcion`, m.descripcion, 1000, true);
  checkPositive(issues, `${at}/cantidad`, m.cantidad, 6);
  if (!isString(m.claveUnidad) || !catalogs.hasUnitCode(m.claveUnidad))
    issues.add(`${at}/claveUnidad`, `${String(m.claveUnidad)} is not a c_ClaveUnidad key`);
  checkText(issues, `${at}/unidad`, m.unidad, 20, false);
  if (m.dimensiones !== undefined && !(isString(m.dimensiones) && DIMENSIONES.test(m.dimensiones)))
    issues.add(`${at}/dimensiones`, 'must be length/width/height in cm or plg, e.g. 30/40/30cm');
  checkPositive(issues, `${at}/pesoEnKg`, m.pesoEnKg, 3);
  if (m.materialPeligroso !== undefined && typeof m.materialPeligroso !== 'boolean')
    issues.add(`${at}/materialPeligroso`, 'must be true or false');
  if (m.materialPeligroso === true) {
    if (
      !isString(m.cveMaterialPeligroso) ||
      !catalogs.hasCartaPorteKey('materiales-peligrosos', m.cveMaterialPeligroso)
    )
      issues.add(
        `${at}/cveMaterialPeligroso`,
        'is required for a hazardous material: its c_MaterialPeligroso key (UN number, e.g. 1203)',
      );
    if (!isString(m.embalaje) || !TIPOS_EMBALAJE.includes(m.embalaje))
      issues.add(`${at}/embalaje`, 'is required for a hazardous material: its c_TipoEmbalaje key, e.g. 1A1');
  } else {
    for (const k of ['cveMaterialPeligroso', 'embalaje'])
      if (m[k] !== undefined) issues.add(`${at}/${k}`, 'must be absent unless materialPeligroso is true');
  }
  if (m.descripEmbalaje !== undefined) {
    checkText(issues, `${at}/descripEmbalaje`, m.descripEmbalaje, 100, true);
    if (m.embalaje === undefined) issues.add(`${at}/descripEmbalaje`, 'goes with embalaje');
  }
  if (m.valorMercancia !== undefined) {
    if (!isNumberLike(m.valorMercancia) || Number(m.valorMercancia) < 0 || decimals(m.valorMercancia) > 6)
      issues.add(`${at}/valorMercancia`, 'must be a number >= 0 with at most 6 decimals');
    if (!isString(m.moneda) || !catalogs.moneda(m.moneda) || m.moneda === 'XXX')
      issues.add(`${at}/moneda`, 'is required with valorMercancia: a c_Moneda key other than XXX');
  } else if (m.moneda !== undefined) issues.add(`${at}/moneda`, 'goes with valorMercancia');
}

function checkFiguras(issues: Issues, value: unknown, catalogs: CatalogLookup, at: string): void {
  if (!Array.isArray(value) || value.length === 0)
    return issues.add(
      at,
      'is required: at least the operador (tipoFigura 01) with rfc, numLicencia and nombre',
    );
  if (!value.some((f) => isObject(f) && f.tipoFigura === '01'))
    issues.add(at, 'must include the operador (tipoFigura 01): motor transport has a driver');
  value.forEach((f, i) => {
    const p = `${at}/${i}`;
    if (!isObject(f)) return issues.add(p, 'must be an object');
    if (!isString(f.tipoFigura) || !FIGURAS_TRANSPORTE.includes(f.tipoFigura))
      return issues.add(
        `${p}/tipoFigura`,
        `${String(f.tipoFigura)} is not a c_FiguraTransporte key (01 to 05)`,
      );
    checkText(issues, `${p}/nombre`, f.nombre, 254, true);
    checkFiguraId(issues, p, f, catalogs);
    if (f.tipoFigura === '01') {
      if (!isString(f.numLicencia))
        issues.add(`${p}/numLicencia`, "is required for the operador: the driver's licence");
      else {
        checkText(issues, `${p}/numLicencia`, f.numLicencia, 16, true);
        if (f.numLicencia.trim().length < 6) issues.add(`${p}/numLicencia`, 'must have 6 to 16 characters');
      }
    } else if (f.numLicencia !== undefined)
      issues.add(`${p}/numLicencia`, 'is only for the operador (tipoFigura 01)');
    const partes = f.partesTransporte;
    if (f.tipoFigura === '02' || f.tipoFigura === '03') {
      if (!Array.isArray(partes) || partes.length === 0)
        issues.add(
          `${p}/partesTransporte`,
          'is required for a propietario or arrendador: the c_ParteTransporte keys they own or lease',
        );
    } else if (partes !== undefined)
      issues.add(`${p}/partesTransporte`, 'is only for a propietario or arrendador (02, 03)');
    if (Array.isArray(partes))
      partes.forEach((k, j) => {
        if (!isString(k) || !PARTES_TRANSPORTE.includes(k))
          issues.add(
            `${p}/partesTransporte/${j}`,
            `${String(k)} is not a c_ParteTransporte key (PT01 to PT12)`,
          );
      });
    checkDomicilio(issues, `${p}/domicilio`, f.domicilio, catalogs, false);
  });
}

/** RFCFigura of a Mexican party (always for the operador of national transport), else the foreign tax id and country. */
function checkFiguraId(issues: Issues, p: string, f: Obj, catalogs: CatalogLookup): void {
  if (f.rfc !== undefined || f.tipoFigura === '01') {
    if (!isString(f.rfc) || !RFC_PATTERN.test(f.rfc) || f.rfc === RFC_EXTRANJERO)
      issues.add(`${p}/rfc`, 'is required: the RFC of the party (of the driver for the operador)');
    for (const k of ['numRegIdTrib', 'residenciaFiscal'])
      if (f[k] !== undefined)
        issues.add(`${p}/${k}`, 'must be absent with rfc: it is for a foreign party without RFC');
    return;
  }
  checkText(issues, `${p}/numRegIdTrib`, f.numRegIdTrib, 40, true);
  if (isString(f.numRegIdTrib) && f.numRegIdTrib.trim().length < 6)
    issues.add(`${p}/numRegIdTrib`, 'must have 6 to 40 characters');
  if (!isString(f.residenciaFiscal) || !catalogs.pais(f.residenciaFiscal) || f.residenciaFiscal === 'MEX')
    issues.add(`${p}/residenciaFiscal`, "is required without rfc: the foreign party's c_Pais key");
}

function figuraInput(f: Obj): CpFigura {
  return {
    tipoFigura: String(f.tipoFigura),
    ...(f.rfc !== undefined ? { rfc: String(f.rfc) } : {}),
    ...(f.numLicencia !== undefined ? { numLicencia: String(f.numLicencia) } : {}),
    nombre: String(f.nombre),
    ...(f.numRegIdTrib !== undefined ? { numRegIdTrib: str(f.numRegIdTrib)! } : {}),
    ...(f.residenciaFiscal !== undefined ? { residenciaFiscal: str(f.residenciaFiscal)! } : {}),
    ...(Array.isArray(f.partesTransporte) ? { partesTransporte: f.partesTransporte.map(String) } : {}),
    ...(isObject(f.domicilio) ? { domicilio: cpDomicilio(f.domicilio) } : {}),
  };
}
