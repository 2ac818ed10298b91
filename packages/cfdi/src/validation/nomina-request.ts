import { MAX_AMOUNT } from '../decimal/limits';
import { dec, sum } from '../decimal/money';
import { isIsoDate } from '../nomina/antiguedad';
import {
  ESTADOS_MEX,
  PERIODICIDADES_PAGO,
  RIESGOS_PUESTO,
  TIPOS_CONTRATO,
  TIPOS_DEDUCCION,
  TIPOS_HORAS,
  TIPOS_INCAPACIDAD,
  TIPOS_JORNADA,
  TIPOS_PERCEPCION,
  TIPOS_REGIMEN,
} from '../nomina/catalogs';
import { JUBILACION_PERCEPCIONES, SEPARACION_PERCEPCIONES } from '../nomina/compute-nomina';
import type { NominaPercepcion, NominaRequest } from '../types';
import { decimals, Issues, isNumberLike, type ValidationIssue } from './issues';
import { checkBankAccount } from './nomina-bank-account';
import { AMOUNT_RULE, amountOk, checkKey, LIMIT, positiveAmount } from './nomina-checks';
import { checkOtrosPagos } from './nomina-otros-pagos';
import { checkNominaIdentity } from './nomina-identity';
import { checkNominaTaxRules } from './nomina-tax-rules';
import { checkRelatedDocuments } from './related-documents';

/** The only relation a payroll receipt carries: it replaces earlier payroll receipts (cfdi40.md §1.4, §7.1). */
const NOMINA_TIPOS_RELACION = { '04': 'sustitución de los CFDI previos' };

/**
 * The SAT's Nómina 1.2 rules (validation matrix NOM101-NOM223, cfdi40.md §7) checked on the request before anything
 * is reserved or stamped. Each message starts with the SAT code and says, in a payroll clerk's terms, what to fix.
 * Totals are computed by the server, so the matrix's arithmetic rules (NOM106-NOM109, NOM156-NOM159, NOM185-NOM190)
 * hold by construction and are proven by the engine's corpus test instead.
 */
export function validateNominaRequest(
  req: NominaRequest,
  ctx: { issuer: { rfc: string }; now: Date },
): ValidationIssue[] {
  const issues = new Issues();
  const today = ctx.now.toISOString().slice(0, 10);
  checkEmployer(issues, req, ctx.issuer.rfc);
  checkEmployee(issues, req, today);
  checkNominaIdentity(issues, req, ctx.issuer.rfc);
  checkPeriod(issues, req);
  checkPercepciones(issues, req, today);
  checkDeducciones(issues, req, today);
  checkOtrosPagos(issues, req, today, ctx.now);
  checkIncapacidades(issues, req, today);
  checkReceiptTotal(issues, req);
  checkNominaTaxRules(issues, req);
  checkRelatedDocuments(issues, req.relatedDocuments, NOMINA_TIPOS_RELACION);
  return issues.list;
}

function checkEmployer(issues: Issues, req: NominaRequest, issuerRfc: string): void {
  const moral = issuerRfc.length === 12;
  if (moral && req.employerCurp !== undefined) {
    issues.add(
      '/employerCurp',
      `NOM113: the employer ${issuerRfc} is a company (persona moral); a CURP is only sent for an employer who is a person`,
    );
  }
  if (!moral && req.employerCurp === undefined) {
    issues.add(
      '/employerCurp',
      `NOM114: the employer ${issuerRfc} is a person (persona física); send the employer's CURP`,
    );
  }
  const contrato = req.employee.tipoContrato;
  if (req.registroPatronal === undefined && contrato >= '01' && contrato <= '08') {
    issues.add(
      '/registroPatronal',
      `NOM161: employees with contract type ${contrato} (a subordinate job) need the employer's registro patronal (IMSS); send it on the request or set it on the merchant`,
    );
  }
}

function checkEmployee(issues: Issues, req: NominaRequest, today: string): void {
  const e = req.employee;
  if (e.rfc.length !== 13)
    issues.add(
      '/employee/rfc',
      `NOM119: ${e.rfc} is a company RFC; a payroll receipt goes to a person, whose RFC has 13 characters`,
    );
  checkKey(
    issues,
    '/employee/tipoContrato',
    TIPOS_CONTRATO,
    e.tipoContrato,
    'NOM167',
    'c_TipoContrato',
    today,
  );
  checkKey(
    issues,
    '/employee/tipoJornada',
    TIPOS_JORNADA,
    e.tipoJornada,
    'NOM168',
    'c_TipoJornada (work shift)',
    today,
  );
  const regimenOk = checkKey(
    issues,
    '/employee/tipoRegimen',
    TIPOS_REGIMEN,
    e.tipoRegimen,
    'NOM172',
    'c_TipoRegimen',
    today,
  );
  checkKey(
    issues,
    '/employee/riesgoPuesto',
    RIESGOS_PUESTO,
    e.riesgoPuesto,
    'NOM175',
    'c_RiesgoPuesto (IMSS risk class)',
    today,
  );
  checkKey(
    issues,
    '/employee/periodicidadPago',
    PERIODICIDADES_PAGO,
    e.periodicidadPago,
    'NOM176',
    'c_PeriodicidadPago',
    today,
  );
  checkKey(
    issues,
    '/employee/claveEntFed',
    ESTADOS_MEX,
    e.claveEntFed,
    'NOM182',
    'Mexican state (c_Estado, e.g. JAL, CMX, NLE)',
    today,
  );
  if (
    regimenOk &&
    e.tipoContrato >= '01' &&
    e.tipoContrato <= '08' &&
    !['02', '03', '04'].includes(e.tipoRegimen)
  ) {
    issues.add(
      '/employee/tipoRegimen',
      `NOM173: contract type ${e.tipoContrato} is a subordinate job, so the regime must be 02 (sueldos), 03 (jubilados) or 04 (pensionados), not ${e.tipoRegimen}`,
    );
  }
  if (
    regimenOk &&
    (e.tipoContrato === '09' || e.tipoContrato === '10' || e.tipoContrato === '99') &&
    e.tipoRegimen < '05'
  ) {
    issues.add(
      '/employee/tipoRegimen',
      `NOM174: contract type ${e.tipoContrato} is not a subordinate job, so the regime must be 05 to 99 (asimilados, honorarios, …), not ${e.tipoRegimen}`,
    );
  }
  if (e.fechaInicioRelLaboral !== undefined) {
    if (!isIsoDate(e.fechaInicioRelLaboral))
      issues.add('/employee/fechaInicioRelLaboral', 'must be a real date YYYY-MM-DD');
    else if (isIsoDate(req.period.fechaFinalPago) && e.fechaInicioRelLaboral > req.period.fechaFinalPago) {
      issues.add(
        '/employee/fechaInicioRelLaboral',
        `NOM169: the employee started on ${e.fechaInicioRelLaboral}, after the end of the period paid (${req.period.fechaFinalPago})`,
      );
    }
  }
  if (req.registroPatronal !== undefined) {
    const missing: Array<[keyof typeof e, string]> = [
      ['numSeguridadSocial', 'social security number (NSS)'],
      ['fechaInicioRelLaboral', 'start date of the employment (for the Antigüedad)'],
      ['riesgoPuesto', 'IMSS risk class of the position'],
      ['salarioDiarioIntegrado', 'integrated daily salary (SDI)'],
    ];
    for (const [field, what] of missing) {
      if (e[field] === undefined)
        issues.add(
          `/employee/${field}`,
          `NOM162: with a registro patronal the employee's ${what} is required`,
        );
    }
  }
  for (const field of ['salarioBaseCotApor', 'salarioDiarioIntegrado'] as const) {
    if (e[field] !== undefined && !amountOk(e[field])) issues.add(`/employee/${field}`, AMOUNT_RULE);
  }
  checkBankAccount(issues, e.banco, e.cuentaBancaria, today);
}

function checkPeriod(issues: Issues, req: NominaRequest): void {
  const p = req.period;
  for (const field of ['fechaPago', 'fechaInicialPago', 'fechaFinalPago'] as const) {
    if (!isIsoDate(p[field])) issues.add(`/period/${field}`, 'must be a real date YYYY-MM-DD');
  }
  if (isIsoDate(p.fechaInicialPago) && isIsoDate(p.fechaFinalPago) && p.fechaInicialPago > p.fechaFinalPago) {
    issues.add(
      '/period/fechaInicialPago',
      `NOM153: the period starts (${p.fechaInicialPago}) after it ends (${p.fechaFinalPago})`,
    );
  }
  if (
    !isNumberLike(p.numDiasPagados) ||
    Number(p.numDiasPagados) < 0.001 ||
    Number(p.numDiasPagados) > 36160 ||
    decimals(p.numDiasPagados) > 3
  ) {
    issues.add('/period/numDiasPagados', 'must be from 0.001 to 36160 with at most 3 decimals');
  }
  if (p.tipoNomina === 'O' && req.employee.periodicidadPago === '99') {
    issues.add(
      '/employee/periodicidadPago',
      'NOM151: an ordinary payroll (tipoNomina O) is paid daily, weekly, … (01-10); 99 (otra periodicidad) is for extraordinary payrolls',
    );
  }
  if (p.tipoNomina === 'E' && req.employee.periodicidadPago !== '99') {
    issues.add(
      '/employee/periodicidadPago',
      `NOM152: an extraordinary payroll (tipoNomina E: aguinaldo, PTU, finiquito, …) takes periodicidadPago 99, not ${req.employee.periodicidadPago}`,
    );
  }
}

const percepcionTotal = (p: NominaPercepcion) => dec(p.importeGravado).plus(dec(p.importeExento));

function checkPercepciones(issues: Issues, req: NominaRequest, today: string): void {
  const list = req.percepciones ?? [];
  list.forEach((p, i) => {
    const at = `/percepciones/${i}`;
    checkKey(issues, `${at}/tipo`, TIPOS_PERCEPCION, p.tipo, 'NOM192', 'c_TipoPercepcion', today);
    const amounts = amountOk(p.importeGravado) && amountOk(p.importeExento);
    if (!amountOk(p.importeGravado)) issues.add(`${at}/importeGravado`, AMOUNT_RULE);
    if (!amountOk(p.importeExento)) issues.add(`${at}/importeExento`, AMOUNT_RULE);
    if (amounts && !percepcionTotal(p).gt(0))
      issues.add(
        `${at}/importeGravado`,
        'NOM191: the taxed plus the exempt amount of a percepción must be greater than 0',
      );
    if (p.tipo === '019' && !p.horasExtra?.length) {
      issues.add(
        `${at}/horasExtra`,
        'NOM204: overtime (percepción 019) needs horasExtra: the days, type of hours (01 dobles, 02 triples, 03 simples), hours and amount paid',
      );
    }
    if (p.tipo !== '019' && p.horasExtra?.length)
      issues.add(
        `${at}/horasExtra`,
        `NOM205: only overtime (percepción 019) carries horasExtra, not ${p.tipo}`,
      );
    p.horasExtra?.forEach((h, k) => {
      checkKey(
        issues,
        `${at}/horasExtra/${k}/tipoHoras`,
        TIPOS_HORAS,
        h.tipoHoras,
        'NOM208',
        'c_TipoHoras',
        today,
      );
      positiveAmount(issues, `${at}/horasExtra/${k}/importePagado`, h.importePagado);
    });
    if (p.tipo === '045' && !p.accionesOTitulos) {
      issues.add(
        `${at}/accionesOTitulos`,
        'NOM202: stock options (percepción 045) need accionesOTitulos with the market value and the price when granted',
      );
    }
    if (p.tipo !== '045' && p.accionesOTitulos)
      issues.add(
        `${at}/accionesOTitulos`,
        `NOM203: only stock options (percepción 045) carry accionesOTitulos, not ${p.tipo}`,
      );
    if (p.accionesOTitulos) {
      positiveAmount(issues, `${at}/accionesOTitulos/valorMercado`, p.accionesOTitulos.valorMercado, 6);
      positiveAmount(
        issues,
        `${at}/accionesOTitulos/precioAlOtorgarse`,
        p.accionesOTitulos.precioAlOtorgarse,
        6,
      );
    }
  });
  checkIncapacidadPercepcion(issues, req);
  checkSeparacionJubilacion(issues, req);
}

/** NOM206/NOM207: a sick-leave payment (percepción 014) is backed by Incapacidades worth exactly what it pays. */
function checkIncapacidadPercepcion(issues: Issues, req: NominaRequest): void {
  const list = req.percepciones ?? [];
  const index = list.findIndex((p) => p.tipo === '014');
  if (index < 0 || !amountOk(list[index]!.importeGravado) || !amountOk(list[index]!.importeExento)) return;
  const paid = sum(list.filter((p) => p.tipo === '014').map(percepcionTotal));
  if (!req.incapacidades?.length) {
    issues.add(
      '/incapacidades',
      'NOM206: a sick-leave payment (percepción 014) needs the incapacidades it covers (days, type and amount)',
    );
    return;
  }
  const covered = sum(
    req.incapacidades.filter((i) => amountOk(i.importe ?? 0)).map((i) => dec(i.importe ?? 0)),
  );
  if (!covered.equals(paid)) {
    issues.add(
      '/incapacidades',
      `NOM207: the incapacidades' amounts add up to ${covered.toFixed(2)} but percepción 014 pays ${paid.toFixed(2)}; they must match`,
    );
  }
}

function checkSeparacionJubilacion(issues: Issues, req: NominaRequest): void {
  const tipos = new Set((req.percepciones ?? []).map((p) => p.tipo));
  const separacion = SEPARACION_PERCEPCIONES.some((t) => tipos.has(t));
  if (separacion && !req.separacionIndemnizacion) {
    issues.add(
      '/separacionIndemnizacion',
      'NOM196: a severance payment (percepción 022, 023 or 025) needs separacionIndemnizacion with the years of service and the last ordinary monthly salary',
    );
  }
  if (!separacion && req.separacionIndemnizacion) {
    issues.add(
      '/separacionIndemnizacion',
      'NOM197: separacionIndemnizacion is only sent with a severance payment (percepción 022, 023 or 025)',
    );
  }
  if (req.separacionIndemnizacion) {
    const s = req.separacionIndemnizacion;
    if (!Number.isInteger(s.numAniosServicio) || s.numAniosServicio < 0 || s.numAniosServicio > 99) {
      issues.add('/separacionIndemnizacion/numAniosServicio', 'must be a whole number of years from 0 to 99');
    }
    if (!amountOk(s.ultimoSueldoMensOrd))
      issues.add('/separacionIndemnizacion/ultimoSueldoMensOrd', AMOUNT_RULE);
  }
  const jubilacion = JUBILACION_PERCEPCIONES.some((t) => tipos.has(t));
  const j = req.jubilacionPensionRetiro;
  if (jubilacion && !j) {
    issues.add(
      '/jubilacionPensionRetiro',
      'NOM198: a retirement or pension payment (percepción 039 or 044) needs jubilacionPensionRetiro',
    );
  }
  if (!jubilacion && j)
    issues.add(
      '/jubilacionPensionRetiro',
      'NOM199: jubilacionPensionRetiro is only sent with a retirement or pension payment (percepción 039 or 044)',
    );
  if (!jubilacion || !j) return;
  if (tipos.has('039') && tipos.has('044')) {
    issues.add(
      '/percepciones',
      'NOM200/NOM201: a receipt pays a pension either in one payment (039) or in installments (044), not both; issue two receipts',
    );
  } else if (tipos.has('039')) {
    if (j.montoDiario !== undefined)
      issues.add(
        '/jubilacionPensionRetiro/montoDiario',
        'NOM200: a pension paid in one payment (039) has no daily amount; leave montoDiario out',
      );
    if (j.ultimoSueldoMensOrd === undefined) {
      issues.add(
        '/jubilacionPensionRetiro/ultimoSueldoMensOrd',
        'is required for a pension paid in one payment (039): the last ordinary monthly salary splits its accumulable income',
      );
    } else if (!amountOk(j.ultimoSueldoMensOrd))
      issues.add('/jubilacionPensionRetiro/ultimoSueldoMensOrd', AMOUNT_RULE);
  } else {
    if (j.montoDiario === undefined)
      issues.add(
        '/jubilacionPensionRetiro/montoDiario',
        'NOM201: a pension paid in installments (044) needs the daily amount (montoDiario)',
      );
    else positiveAmount(issues, '/jubilacionPensionRetiro/montoDiario', j.montoDiario);
    if (j.ultimoSueldoMensOrd !== undefined)
      issues.add(
        '/jubilacionPensionRetiro/ultimoSueldoMensOrd',
        'is only used for a pension paid in one payment (039)',
      );
  }
}

function checkDeducciones(issues: Issues, req: NominaRequest, today: string): void {
  (req.deducciones ?? []).forEach((d, i) => {
    checkKey(issues, `/deducciones/${i}/tipo`, TIPOS_DEDUCCION, d.tipo, 'NOM213', 'c_TipoDeduccion', today);
    if (!positiveAmount(issues, `/deducciones/${i}/importe`, d.importe)) return;
    if (d.tipo !== '006') return;
    const incapacidades = req.incapacidades ?? [];
    const covered = sum(
      incapacidades.filter((inc) => amountOk(inc.importe ?? 0)).map((inc) => dec(inc.importe ?? 0)),
    );
    if (!incapacidades.length || !covered.equals(dec(d.importe))) {
      issues.add(
        `/deducciones/${i}/importe`,
        `NOM214: a sick-leave deduction (006) must equal the incapacidades' amounts (${covered.toFixed(2)}); send the incapacidades it discounts`,
      );
    }
  });
}

function checkIncapacidades(issues: Issues, req: NominaRequest, today: string): void {
  (req.incapacidades ?? []).forEach((inc, i) => {
    checkKey(
      issues,
      `/incapacidades/${i}/tipo`,
      TIPOS_INCAPACIDAD,
      inc.tipo,
      'NOM223',
      'c_TipoIncapacidad',
      today,
    );
    if (inc.importe !== undefined && !amountOk(inc.importe))
      issues.add(`/incapacidades/${i}/importe`, AMOUNT_RULE);
  });
}

/** NOM149 and a receipt that never pays a negative amount (Total = SubTotal − Descuento ≥ 0). */
function checkReceiptTotal(issues: Issues, req: NominaRequest): void {
  const percepciones = req.percepciones ?? [];
  const otros = req.otrosPagos ?? [];
  if (!percepciones.length && !otros.length) {
    issues.add(
      '/percepciones',
      'NOM149: a payroll receipt pays percepciones, otros pagos or both; send at least one',
    );
    return;
  }
  const amounts = [
    ...percepciones.flatMap((p) => [p.importeGravado, p.importeExento]),
    ...otros.map((o) => o.importe),
    ...(req.deducciones ?? []).map((d) => d.importe),
  ];
  if (!amounts.every(amountOk)) return;
  const paid = sum(percepciones.map(percepcionTotal)).plus(sum(otros.map((o) => dec(o.importe))));
  const deducted = sum((req.deducciones ?? []).map((d) => dec(d.importe)));
  if (paid.gt(MAX_AMOUNT)) {
    issues.add(
      percepciones.length ? '/percepciones' : '/otrosPagos',
      `the receipt pays ${paid.toFixed(2)}: a payroll receipt's SubTotal must be at most ${LIMIT}`,
    );
  }
  if (deducted.gt(paid)) {
    issues.add(
      '/deducciones',
      `NOM109: the deductions (${deducted.toFixed(2)}) exceed what the receipt pays (${paid.toFixed(2)}); the net pay cannot be negative`,
    );
  }
}
