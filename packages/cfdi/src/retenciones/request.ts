import {
  checkText,
  decimals,
  isNumberLike,
  isString,
  Issues,
  type ValidationIssue,
  type Obj,
} from '../validation/issues';
import { isGenericRfc, isRfc } from '../validation/rfc';
import { dec, sum } from '../decimal/money';
import { MAX_AMOUNT } from '../decimal/limits';
import {
  CVE_RETENC,
  CVE_RETENC_OTRO,
  EJERCICIO_MAX,
  EJERCICIO_MIN,
  IMPUESTO_RET,
  TIPO_PAGO_RET,
  TIPO_RELACION,
} from './catalogs';

/** POST /v1/retentions body as received (unknowns until checked). */
export interface RetentionRequest {
  folioInt?: unknown;
  cveRetenc?: unknown;
  descRetenc?: unknown;
  related?: unknown;
  receiver?: unknown;
  period?: unknown;
  totals?: unknown;
  withholdings?: unknown;
}

export interface RetentionContext {
  /** Year of FechaExp in Mexico: a certificate cannot cover a later ejercicio. */
  currentYear: number;
  issuerRfc: string;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** t_CURP of tdCFDI.xsd as is (state codes, consonants): a CURP this accepts is one the SAT's schema accepts. */
const CURP =
  /^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[MHX]([ABCMTZ]S|[BCJMOT]C|[CNPST]L|[GNQ]T|[GQS]R|C[MH]|[MY]N|[DH]G|NE|VZ|DF|SP)[BCDFGHJ-NP-TV-Z]{3}[0-9A-Z][0-9]$/;
const UUID = /^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;

/** A non-negative amount with at most two decimals (t_ImporteMXN as this service writes it). */
function checkAmount(issues: Issues, path: string, value: unknown, required: boolean): boolean {
  if (value === undefined || value === null) {
    if (required) issues.add(path, 'is required');
    return false;
  }
  if (!isNumberLike(value)) return (issues.add(path, 'must be a number'), false);
  if (Number(value) < 0) return (issues.add(path, 'must be 0 or greater'), false);
  if (Number(value) > MAX_AMOUNT) return (issues.add(path, `must be at most ${MAX_AMOUNT}`), false);
  if (decimals(value) > 2) return (issues.add(path, 'must have at most 2 decimals'), false);
  return true;
}

function checkKey(
  issues: Issues,
  path: string,
  value: unknown,
  keys: readonly string[],
  what: string,
): boolean {
  if (value === undefined) return (issues.add(path, 'is required'), false);
  if (!isString(value) || !keys.includes(value)) {
    issues.add(path, `must be a ${what} key: ${keys.join(', ')}`);
    return false;
  }
  return true;
}

function checkReceiver(issues: Issues, r: unknown, ctx: RetentionContext): void {
  if (!isObj(r)) return issues.add('/receiver', 'is required: {nacionalidad, ...}');
  if (r.nacionalidad === 'Nacional') {
    if (!isString(r.rfc) || !isRfc(r.rfc)) {
      issues.add('/receiver/rfc', 'must be an RFC of 12 (moral) or 13 (física) characters in capitals');
    } else if (isGenericRfc(r.rfc)) {
      issues.add(
        '/receiver/rfc',
        'must be the receiver’s own RFC: a generic RFC is not a Mexican taxpayer (send nacionalidad Extranjero for a foreign one)',
      );
    } else if (r.rfc === ctx.issuerRfc) {
      issues.add('/receiver/rfc', 'must differ from the issuer’s RFC: one does not withhold from oneself');
    }
    checkText(issues, '/receiver/name', r.name, 254, true);
    if (r.curp !== undefined && (!isString(r.curp) || !CURP.test(r.curp)))
      issues.add('/receiver/curp', 'must be an 18-character CURP');
    if (!isString(r.zip) || !/^[0-9]{5}$/.test(r.zip))
      issues.add('/receiver/zip', 'must be the 5-digit postal code of the receiver’s fiscal domicile');
  } else if (r.nacionalidad === 'Extranjero') {
    checkText(issues, '/receiver/name', r.name, 300, true);
    if (r.numRegIdTrib !== undefined) checkText(issues, '/receiver/numRegIdTrib', r.numRegIdTrib, 20, true);
    for (const field of ['rfc', 'zip', 'curp'])
      if (r[field] !== undefined) issues.add(`/receiver/${field}`, 'is only for a Nacional receiver');
  } else {
    issues.add('/receiver/nacionalidad', 'must be Nacional or Extranjero');
  }
}

function checkPeriod(issues: Issues, p: unknown, ctx: RetentionContext): void {
  if (!isObj(p)) return issues.add('/period', 'is required: {mesIni, mesFin, ejercicio}');
  const month = (path: string, v: unknown) => {
    const ok = typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 12;
    if (!ok) issues.add(path, 'must be a month from 1 to 12 (c_Periodo)');
    return ok;
  };
  if (
    month('/period/mesIni', p.mesIni) &&
    month('/period/mesFin', p.mesFin) &&
    Number(p.mesIni) > Number(p.mesFin)
  )
    issues.add(
      '/period/mesFin',
      `must not be before mesIni (${String(p.mesIni)}): a period runs within one ejercicio`,
    );
  const year = p.ejercicio;
  if (typeof year !== 'number' || !Number.isInteger(year) || year < EJERCICIO_MIN || year > EJERCICIO_MAX) {
    issues.add('/period/ejercicio', `must be a year from ${EJERCICIO_MIN} to ${EJERCICIO_MAX} (c_Ejercicio)`);
  } else if (year > ctx.currentYear) {
    issues.add('/period/ejercicio', `must not be after the year of issue (${ctx.currentYear})`);
  }
}

function checkTotals(issues: Issues, req: RetentionRequest): void {
  const t = req.totals;
  if (!isObj(t)) return issues.add('/totals', 'is required: {montoTotGrav, montoTotExent}');
  const grav = checkAmount(issues, '/totals/montoTotGrav', t.montoTotGrav, true);
  const exent = checkAmount(issues, '/totals/montoTotExent', t.montoTotExent, true);
  checkAmount(issues, '/totals/utilidadBimestral', t.utilidadBimestral, false);
  checkAmount(issues, '/totals/isrCorrespondiente', t.isrCorrespondiente, false);
  if (grav && exent && checkAmount(issues, '/totals/montoTotOperacion', t.montoTotOperacion, false)) {
    const expected = dec(t.montoTotGrav as string).plus(dec(t.montoTotExent as string));
    if (!dec(t.montoTotOperacion as string).eq(expected))
      issues.add(
        '/totals/montoTotOperacion',
        `must equal montoTotGrav + montoTotExent (${expected.toFixed(2)})`,
      );
  }
  // No ImpRetenidos is a certificate of payments with nothing withheld (the XSD's minOccurs 0): MontoTotRet 0.
  const ws = req.withholdings ?? [];
  if (!Array.isArray(ws))
    return issues.add('/withholdings', 'must be a list of taxes withheld (ImpRetenidos)');
  let allOk = true;
  ws.forEach((w: unknown, i) => {
    const at = `/withholdings/${i}`;
    if (!isObj(w)) return (issues.add(at, 'must be an object {montoRet, tipoPagoRet, ...}'), (allOk = false));
    allOk = checkAmount(issues, `${at}/montoRet`, w.montoRet, true) && allOk;
    checkAmount(issues, `${at}/baseRet`, w.baseRet, false);
    if (w.impuestoRet !== undefined)
      checkKey(issues, `${at}/impuestoRet`, w.impuestoRet, IMPUESTO_RET, 'c_Impuesto');
    checkKey(issues, `${at}/tipoPagoRet`, w.tipoPagoRet, TIPO_PAGO_RET, 'c_TipoPagoRet');
  });
  if (allOk && checkAmount(issues, '/totals/montoTotRet', t.montoTotRet, false)) {
    const expected = sum(ws.map((w: Obj) => dec(w.montoRet as string)));
    if (!dec(t.montoTotRet as string).eq(expected))
      issues.add(
        '/totals/montoTotRet',
        `must equal the sum of withholdings[].montoRet (${expected.toFixed(2)})`,
      );
  }
}

/** The rules of a Retenciones 2.0 certificate a server can check before sealing, each with its field path. */
export function validateRetentionRequest(req: RetentionRequest, ctx: RetentionContext): ValidationIssue[] {
  const issues = new Issues();
  if (req.folioInt !== undefined && (!isString(req.folioInt) || !/^[0-9a-zA-Z]{1,20}$/.test(req.folioInt)))
    issues.add('/folioInt', 'must be 1 to 20 letters or digits');
  if (checkKey(issues, '/cveRetenc', req.cveRetenc, CVE_RETENC, 'c_CveRetenc')) {
    if (req.cveRetenc === CVE_RETENC_OTRO && req.descRetenc === undefined)
      issues.add('/descRetenc', 'is required with cveRetenc 25 (otro tipo de retenciones): say which');
  }
  if (req.descRetenc !== undefined) checkText(issues, '/descRetenc', req.descRetenc, 100, true);
  if (req.related !== undefined) {
    const rel = isObj(req.related) ? req.related : {};
    checkKey(issues, '/related/tipoRelacion', rel.tipoRelacion, TIPO_RELACION, 'c_TipoRelacion');
    if (!isString(rel.uuid) || !UUID.test(rel.uuid)) issues.add('/related/uuid', 'must be a UUID');
  }
  checkReceiver(issues, req.receiver, ctx);
  checkPeriod(issues, req.period, ctx);
  checkTotals(issues, req);
  return issues.list;
}
