import { dec, sum } from '../decimal/money';
import { isIsoDate } from '../nomina/antiguedad';
import { payablePeriodDays } from '../nomina/period-days';
import { incomeLimitFor, maxSubsidioCausado, subsidioEnVigor } from '../nomina/subsidio-empleo';
import type { NominaRequest } from '../types';
import { decimals, isNumberLike, type Issues } from './issues';

/**
 * Rules an accountant applies beyond the SAT's validation matrix (docs/decisions.md, payroll rules): days paid
 * within the period, the legal cap of the employment subsidy, and ISR withheld as deducción 002. They run only on
 * values the basic checks accepted, so each failure is reported once.
 */
export function checkNominaTaxRules(issues: Issues, req: NominaRequest): void {
  checkDiasPagados(issues, req);
  checkSubsidioCap(issues, req);
  checkIsrWithheld(issues, req);
}

const validDias = (value: unknown): boolean =>
  isNumberLike(value) && Number(value) >= 0.001 && Number(value) <= 36160 && decimals(value) <= 3;
const validAmount = (value: unknown): boolean =>
  isNumberLike(value) && Number(value) >= 0 && decimals(value) <= 2;

/**
 * An ordinary payroll pays at most the days of its period (calendar days, or 30-day months when more: 15 days for
 * Feb 16–28). An extraordinary one (aguinaldo, PTU, finiquito) is not bounded by its period: the SAT's guide lets its
 * dates be the payment date while the days say what the payment covers.
 */
function checkDiasPagados(issues: Issues, req: NominaRequest): void {
  const p = req.period;
  if (p.tipoNomina !== 'O' || !validDias(p.numDiasPagados)) return;
  if (!isIsoDate(p.fechaInicialPago) || !isIsoDate(p.fechaFinalPago) || p.fechaInicialPago > p.fechaFinalPago)
    return;
  const days = payablePeriodDays(p.fechaInicialPago, p.fechaFinalPago);
  if (dec(p.numDiasPagados).gt(days)) {
    issues.add(
      '/period/numDiasPagados',
      `an ordinary payroll pays at most the days of its period: ${p.fechaInicialPago} to ${p.fechaFinalPago} has ${days}, not ${p.numDiasPagados}`,
    );
  }
}

/** SubsidioCausado within the subsidio para el empleo in force on the payment date (nomina/subsidio-empleo.ts). */
function checkSubsidioCap(issues: Issues, req: NominaRequest): void {
  const row = isIsoDate(req.period.fechaPago) ? subsidioEnVigor(req.period.fechaPago) : undefined;
  if (!row || !validDias(req.period.numDiasPagados)) return;
  const cap = maxSubsidioCausado(row, dec(req.period.numDiasPagados));
  (req.otrosPagos ?? []).forEach((o, i) => {
    if (o.tipo !== '002' || !validAmount(o.subsidioCausado) || !dec(o.subsidioCausado!).gt(cap)) return;
    issues.add(
      `/otrosPagos/${i}/subsidioCausado`,
      `${o.subsidioCausado} is more than the subsidio para el empleo allows for ${req.period.numDiasPagados} days paid on ${req.period.fechaPago}: at most ${cap.toFixed(2)} (${row.monthly.toFixed(2)} a month ÷ 30.4 × days; ${row.source})`,
    );
  });
}

const NAMES_ISR = /\bI\.?\s?S\.?\s?R\b|impuesto sobre la renta/i;

/**
 * The ISR withheld from the worker is deducción 002 (it makes TotalImpuestosRetenidos); sent as 004 "otros" it would
 * be stamped as an ordinary discount. Taxed income above the subsidy's income limit (brought to the days paid, or a
 * month's limit for an extraordinary payroll) always owes ISR, so a receipt without deducción 002 is refused; below
 * it the subsidy may cancel the tax, and no withholding is a valid receipt.
 */
function checkIsrWithheld(issues: Issues, req: NominaRequest): void {
  const deducciones = req.deducciones ?? [];
  deducciones.forEach((d, i) => {
    if (d.tipo === '004' && NAMES_ISR.test(d.concepto))
      issues.add(
        `/deducciones/${i}/tipo`,
        `"${d.concepto}" is the ISR withheld: send it as deducción 002 (ISR), which the SAT totals in TotalImpuestosRetenidos, not 004 (otros)`,
      );
  });
  if (deducciones.some((d) => d.tipo === '002')) return;
  const percepciones = req.percepciones ?? [];
  const row = isIsoDate(req.period.fechaPago) ? subsidioEnVigor(req.period.fechaPago) : undefined;
  if (
    !row ||
    !validDias(req.period.numDiasPagados) ||
    !percepciones.every((p) => validAmount(p.importeGravado))
  )
    return;
  const gravado = sum(percepciones.map((p) => dec(p.importeGravado)));
  const days = req.period.tipoNomina === 'O' ? dec(req.period.numDiasPagados) : dec(31);
  const limit = incomeLimitFor(row, days);
  if (gravado.gt(limit)) {
    issues.add(
      '/deducciones',
      `the receipt pays ${gravado.toFixed(2)} of taxed income, above the ${limit.toFixed(2)} up to which the employment subsidy can cancel the ISR (${row.incomeLimit.toFixed(2)} a month): add the ISR withheld as deducción 002`,
    );
  }
}
