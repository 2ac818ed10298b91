import {
  checkPositive,
  checkText,
  decimals,
  isNumberLike,
  isObject,
  isString,
  type Issues,
  type Obj,
} from '../validation/issues';
import { CONFIG_AUTOTRANSPORTE, SUBTIPOS_REMOLQUE, TIPOS_PERMISO_AUTOTRANSPORTE } from './catalogs';
import type { CartaPorteInput } from './types';

// Carta Porte 3.1's Autotransporte: the permit, the vehicle, its insurance and the trailers its configuration pulls.

const PLACA = /^[A-Z0-9]{5,7}$/;
/** Configurations that pull a trailer or semi-trailer (C…R…, T…S…): Remolques is required with them. */
const WITH_TRAILER = /^(C[23]R[234]|T[23]S[123](R[234]|S2)?)$/;
/** Configurations that never pull one (rigid trucks and light vehicles): Remolques must be absent. */
const WITHOUT_TRAILER = ['C2', 'C3', 'VL'];

/** A request's amount as the XML writes it: a number with its own decimals, or the string as sent. */
export const amount = (v: unknown): string => (typeof v === 'number' ? v.toFixed(decimals(v)) : String(v));

export function checkAutotransporte(issues: Issues, a: unknown, hazardous: boolean, at: string): void {
  if (!isObject(a))
    return issues.add(
      at,
      'is required: {permSCT, numPermisoSCT, configVehicular, pesoBrutoVehicular, placaVM, anioModeloVM, seguros}',
    );
  if (!isString(a.permSCT) || !TIPOS_PERMISO_AUTOTRANSPORTE.includes(a.permSCT))
    issues.add(
      `${at}/permSCT`,
      `${String(a.permSCT)} is not a c_TipoPermiso key of motor transport (TPAF01…TPAF20, TPXX00)`,
    );
  checkText(issues, `${at}/numPermisoSCT`, a.numPermisoSCT, 50, true);
  const config = a.configVehicular;
  if (!isString(config) || !CONFIG_AUTOTRANSPORTE.includes(config))
    issues.add(
      `${at}/configVehicular`,
      `${String(config)} is not a c_ConfigAutotransporte key, e.g. C2, T3S2`,
    );
  if (
    checkPositive(issues, `${at}/pesoBrutoVehicular`, a.pesoBrutoVehicular, 2) &&
    Number(a.pesoBrutoVehicular) < 0.01
  )
    issues.add(`${at}/pesoBrutoVehicular`, 'must be at least 0.01 (tonnes)');
  if (!isString(a.placaVM) || !PLACA.test(a.placaVM))
    issues.add(`${at}/placaVM`, 'must be the plate: 5 to 7 capital letters or digits, no spaces or hyphens');
  const year = a.anioModeloVM;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < 1900 || year > 2099)
    issues.add(`${at}/anioModeloVM`, 'must be the model year, an integer from 1900 to 2099');
  checkSeguros(issues, a.seguros, hazardous, `${at}/seguros`);
  const remolques = a.remolques;
  if (remolques === undefined) {
    if (isString(config) && WITH_TRAILER.test(config))
      issues.add(`${at}/remolques`, `is required with configVehicular ${config}: it pulls a trailer`);
    return;
  }
  if (!Array.isArray(remolques) || remolques.length === 0 || remolques.length > 2)
    return issues.add(`${at}/remolques`, 'must list one or two trailers {subTipoRem, placa}');
  if (isString(config) && WITHOUT_TRAILER.includes(config))
    issues.add(`${at}/remolques`, `must be absent with configVehicular ${config}: it pulls no trailer`);
  remolques.forEach((r, i) => {
    if (!isObject(r)) return issues.add(`${at}/remolques/${i}`, 'must be an object {subTipoRem, placa}');
    if (!isString(r.subTipoRem) || !SUBTIPOS_REMOLQUE.includes(r.subTipoRem))
      issues.add(
        `${at}/remolques/${i}/subTipoRem`,
        `${String(r.subTipoRem)} is not a c_SubTipoRem key, e.g. CTR004`,
      );
    if (!isString(r.placa) || !PLACA.test(r.placa))
      issues.add(`${at}/remolques/${i}/placa`, 'must be the plate: 5 to 7 capital letters or digits');
  });
}

function checkSeguros(issues: Issues, s: unknown, hazardous: boolean, at: string): void {
  if (!isObject(s)) return issues.add(at, 'is required: {aseguraRespCivil, polizaRespCivil, …}');
  const between = (k: string, min: number, max: number, required: boolean) => {
    checkText(issues, `${at}/${k}`, s[k], max, required);
    if (isString(s[k]) && s[k].trim().length < min)
      issues.add(`${at}/${k}`, `must have ${min} to ${max} characters`);
  };
  between('aseguraRespCivil', 3, 50, true);
  between('polizaRespCivil', 3, 30, true);
  for (const [insurer, policy] of [
    ['aseguraMedAmbiente', 'polizaMedAmbiente'],
    ['aseguraCarga', 'polizaCarga'],
  ] as const) {
    between(insurer, 3, 50, false);
    between(policy, 3, 30, false);
    if ((s[insurer] === undefined) !== (s[policy] === undefined))
      issues.add(
        `${at}/${s[insurer] === undefined ? insurer : policy}`,
        `goes with ${s[insurer] === undefined ? policy : insurer}`,
      );
  }
  if (hazardous && s.aseguraMedAmbiente === undefined)
    issues.add(
      `${at}/aseguraMedAmbiente`,
      'is required when a good is a hazardous material: the environmental liability insurer and policy',
    );
  if (
    s.primaSeguro !== undefined &&
    (!isNumberLike(s.primaSeguro) || Number(s.primaSeguro) < 0 || decimals(s.primaSeguro) > 6)
  )
    issues.add(`${at}/primaSeguro`, 'must be a number >= 0 with at most 6 decimals');
}

export function autotransporteInput(a: Obj): CartaPorteInput['autotransporte'] {
  const s = a.seguros as Obj;
  const seguros: Record<string, string> = {};
  for (const k of [
    'aseguraRespCivil',
    'polizaRespCivil',
    'aseguraMedAmbiente',
    'polizaMedAmbiente',
    'aseguraCarga',
    'polizaCarga',
  ])
    if (s[k] !== undefined) seguros[k] = String(s[k]);
  if (s.primaSeguro !== undefined) seguros.primaSeguro = amount(s.primaSeguro);
  const remolques = a.remolques as Obj[] | undefined;
  return {
    permSCT: String(a.permSCT),
    numPermisoSCT: String(a.numPermisoSCT),
    configVehicular: String(a.configVehicular),
    pesoBrutoVehicular: amount(a.pesoBrutoVehicular),
    placaVM: String(a.placaVM),
    anioModeloVM: a.anioModeloVM as number,
    seguros: seguros as CartaPorteInput['autotransporte']['seguros'],
    ...(remolques
      ? { remolques: remolques.map((r) => ({ subTipoRem: String(r.subTipoRem), placa: String(r.placa) })) }
      : {}),
  };
}
