import { dec } from '../decimal/money';
import { TIPOS_OTRO_PAGO } from '../nomina/catalogs';
import type { NominaRequest } from '../types';
import type { Issues } from './issues';
import { AMOUNT_RULE, amountOk, checkKey, positiveAmount } from './nomina-checks';

export function checkOtrosPagos(issues: Issues, req: NominaRequest, today: string, now: Date): void {
  (req.otrosPagos ?? []).forEach((o, i) => {
    const at = `/otrosPagos/${i}`;
    checkKey(issues, `${at}/tipo`, TIPOS_OTRO_PAGO, o.tipo, 'NOM216', 'c_TipoOtroPago', today);
    const importeOk = positiveAmount(issues, `${at}/importe`, o.importe);
    if (o.tipo === '002') {
      if (o.subsidioCausado === undefined) {
        issues.add(
          `${at}/subsidioCausado`,
          'NOM218: the employment subsidy (otro pago 002) needs subsidioCausado, the subsidy the employee was entitled to in the period',
        );
      } else if (
        positiveAmount(issues, `${at}/subsidioCausado`, o.subsidioCausado) &&
        importeOk &&
        dec(o.subsidioCausado).lt(dec(o.importe))
      ) {
        issues.add(
          `${at}/subsidioCausado`,
          `NOM220: the subsidy delivered (${o.importe}) cannot be more than the subsidy the employee was entitled to (${o.subsidioCausado})`,
        );
      }
      if (req.employee.tipoRegimen !== '02') {
        issues.add(
          `${at}/tipo`,
          `the employment subsidy (otro pago 002) is only for salaried employees (tipoRegimen 02), not regime ${req.employee.tipoRegimen} (Guía de llenado de nómina, OtroPago)`,
        );
      }
    } else if (o.subsidioCausado !== undefined) {
      issues.add(
        `${at}/subsidioCausado`,
        `is only sent with the employment subsidy (otro pago 002), not ${o.tipo}`,
      );
    }
    const c = o.compensacionSaldosAFavor;
    if (o.tipo === '004' && !c) {
      issues.add(
        `${at}/compensacionSaldosAFavor`,
        "NOM217: applying a tax balance in the employee's favour (otro pago 004) needs compensacionSaldosAFavor (balance, year and remainder)",
      );
    }
    if (o.tipo !== '004' && c)
      issues.add(`${at}/compensacionSaldosAFavor`, `is only sent with otro pago 004, not ${o.tipo}`);
    if (c) {
      const ok =
        positiveAmount(issues, `${at}/compensacionSaldosAFavor/saldoAFavor`, c.saldoAFavor) &&
        amountOk(c.remanenteSalFav);
      if (!amountOk(c.remanenteSalFav))
        issues.add(`${at}/compensacionSaldosAFavor/remanenteSalFav`, AMOUNT_RULE);
      if (ok && dec(c.saldoAFavor).lt(dec(c.remanenteSalFav))) {
        issues.add(
          `${at}/compensacionSaldosAFavor/remanenteSalFav`,
          `NOM221: the remainder (${c.remanenteSalFav}) cannot exceed the balance in favour (${c.saldoAFavor})`,
        );
      }
      checkCompensacionYear(issues, `${at}/compensacionSaldosAFavor/anio`, c.anio, req, now);
    }
  });
}

/**
 * NOM222: a balance in the worker's favour is compensated in the next tax year, so Año is the previous year, or the
 * current one in a December period (the annual adjustment made in December). Years are those of the issue date.
 */
function checkCompensacionYear(
  issues: Issues,
  path: string,
  anio: number,
  req: NominaRequest,
  now: Date,
): void {
  const year = now.getUTCFullYear();
  const december = req.period.fechaFinalPago.startsWith(`${year}-12-`);
  if (anio === year - 1 || (december && anio === year)) return;
  issues.add(
    path,
    `NOM222: the balance in favour compensated must come from the previous tax year (${year - 1})${december ? ` or, in December, the current one (${year})` : `; the current year (${year}) only in a December period`}, not ${anio}`,
  );
}
