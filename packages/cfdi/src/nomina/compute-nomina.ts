import { dec, fixed, sum, ZERO, type Dec } from '../decimal/money';
import type { NominaInput, NominaPercepcion } from '../types';

/** Percepciones that are separación/indemnización (TotalSeparacionIndemnizacion, NOM187). */
export const SEPARACION_PERCEPCIONES = ['022', '023', '025'];
/** Percepciones that are jubilación/pensión/retiro (TotalJubilacionPensionRetiro, NOM188): 039 one payment, 044 installments. */
export const JUBILACION_PERCEPCIONES = ['039', '044'];

export interface NominaTotals {
  totalSueldos?: string;
  totalSeparacionIndemnizacion?: string;
  totalJubilacionPensionRetiro?: string;
  totalGravado: string;
  totalExento: string;
  /** Nomina@TotalPercepciones; absent without percepciones. */
  totalPercepciones?: string;
  totalOtrasDeducciones?: string;
  totalImpuestosRetenidos?: string;
  totalDeducciones?: string;
  totalOtrosPagos?: string;
  /** SeparacionIndemnizacion node values. */
  separacion?: {
    totalPagado: string;
    numAniosServicio: string;
    ultimoSueldoMensOrd: string;
    ingresoAcumulable: string;
    ingresoNoAcumulable: string;
  };
  /** JubilacionPensionRetiro node values (one of totalUnaExhibicion / totalParcialidad). */
  jubilacion?: {
    totalUnaExhibicion?: string;
    totalParcialidad?: string;
    montoDiario?: string;
    ingresoAcumulable: string;
    ingresoNoAcumulable: string;
  };
  /** Concepto ValorUnitario/Importe and Comprobante SubTotal. */
  subTotal: string;
  descuento?: string;
  total: string;
}

const money = (v: Dec): string => fixed(v, 2);
const amountOf = (p: NominaPercepcion): Dec => dec(p.importeGravado).plus(dec(p.importeExento));
const totalOf = (list: NominaPercepcion[]): Dec => sum(list.map(amountOf));
const gravadoOf = (list: NominaPercepcion[]): Dec => sum(list.map((p) => dec(p.importeGravado)));
const min = (a: Dec, b: Dec): Dec => (a.lt(b) ? a : b);

/**
 * The taxed part of a one-time separation or retirement payment up to the last ordinary monthly salary is
 * accumulable income; the taxed rest is not (LISR art. 95). Exempt amounts are neither.
 */
function splitAccumulable(
  gravado: Dec,
  ultimoSueldoMensOrd: Dec,
): { ingresoAcumulable: string; ingresoNoAcumulable: string } {
  const acumulable = min(gravado, ultimoSueldoMensOrd);
  return { ingresoAcumulable: money(acumulable), ingresoNoAcumulable: money(gravado.minus(acumulable)) };
}

/**
 * Nómina 1.2 totals (cfdi40.md §7.4, NOM185-NOM190): TotalSueldos, TotalSeparacionIndemnizacion and
 * TotalJubilacionPensionRetiro by percepción type, TotalDeducciones = otras + ISR (type 002),
 * SubTotal = TotalPercepciones + TotalOtrosPagos, Descuento = TotalDeducciones, Total = SubTotal − Descuento.
 * The request is assumed valid (validateNominaRequest); an impossible receipt still throws.
 */
export function computeNomina(input: NominaInput): NominaTotals {
  const percepciones = input.percepciones ?? [];
  const deducciones = input.deducciones ?? [];
  const otrosPagos = input.otrosPagos ?? [];
  if (percepciones.length === 0 && otrosPagos.length === 0) {
    throw new RangeError('a payroll receipt needs percepciones or otrosPagos (NOM149)');
  }
  const separacion = percepciones.filter((p) => SEPARACION_PERCEPCIONES.includes(p.tipo));
  const jubilacion = percepciones.filter((p) => JUBILACION_PERCEPCIONES.includes(p.tipo));
  const sueldos = percepciones.filter(
    (p) => !SEPARACION_PERCEPCIONES.includes(p.tipo) && !JUBILACION_PERCEPCIONES.includes(p.tipo),
  );
  const isr = deducciones.filter((d) => d.tipo === '002').map((d) => dec(d.importe));
  const otras = deducciones.filter((d) => d.tipo !== '002').map((d) => dec(d.importe));
  const totalPercepciones = totalOf(percepciones);
  const totalOtrosPagos = sum(otrosPagos.map((o) => dec(o.importe)));
  const totalDeducciones = sum(isr).plus(sum(otras));
  const subTotal = totalPercepciones.plus(totalOtrosPagos);
  if (!subTotal.gt(ZERO)) throw new RangeError('a payroll receipt must pay something');
  if (totalDeducciones.gt(subTotal)) throw new RangeError('deducciones exceed percepciones plus otros pagos');

  const totals: NominaTotals = {
    ...(sueldos.length ? { totalSueldos: money(totalOf(sueldos)) } : {}),
    ...(separacion.length ? { totalSeparacionIndemnizacion: money(totalOf(separacion)) } : {}),
    ...(jubilacion.length ? { totalJubilacionPensionRetiro: money(totalOf(jubilacion)) } : {}),
    totalGravado: money(gravadoOf(percepciones)),
    totalExento: money(sum(percepciones.map((p) => dec(p.importeExento)))),
    ...(percepciones.length ? { totalPercepciones: money(totalPercepciones) } : {}),
    ...(otras.length ? { totalOtrasDeducciones: money(sum(otras)) } : {}),
    ...(isr.length ? { totalImpuestosRetenidos: money(sum(isr)) } : {}),
    ...(deducciones.length ? { totalDeducciones: money(totalDeducciones) } : {}),
    ...(otrosPagos.length ? { totalOtrosPagos: money(totalOtrosPagos) } : {}),
    subTotal: money(subTotal),
    ...(deducciones.length ? { descuento: money(totalDeducciones) } : {}),
    total: money(subTotal.minus(totalDeducciones)),
  };
  if (separacion.length) {
    const data = input.separacionIndemnizacion;
    if (!data) throw new RangeError('percepciones 022/023/025 need separacionIndemnizacion (NOM196)');
    totals.separacion = {
      totalPagado: money(totalOf(separacion)),
      numAniosServicio: String(data.numAniosServicio),
      ultimoSueldoMensOrd: money(dec(data.ultimoSueldoMensOrd)),
      ...splitAccumulable(gravadoOf(separacion), dec(data.ultimoSueldoMensOrd)),
    };
  }
  if (jubilacion.length) {
    const data = input.jubilacionPensionRetiro;
    if (!data) throw new RangeError('percepciones 039/044 need jubilacionPensionRetiro (NOM198)');
    if (jubilacion.every((p) => p.tipo === '039')) {
      if (data.ultimoSueldoMensOrd === undefined)
        throw new RangeError('percepción 039 needs jubilacionPensionRetiro.ultimoSueldoMensOrd');
      totals.jubilacion = {
        totalUnaExhibicion: money(totalOf(jubilacion)),
        ...splitAccumulable(gravadoOf(jubilacion), dec(data.ultimoSueldoMensOrd)),
      };
    } else {
      if (jubilacion.some((p) => p.tipo === '039'))
        throw new RangeError('percepciones 039 and 044 cannot be combined (NOM200/NOM201)');
      if (data.montoDiario === undefined)
        throw new RangeError('percepción 044 needs jubilacionPensionRetiro.montoDiario (NOM201)');
      // Installments are ordinary income: all of their taxed part accumulates.
      totals.jubilacion = {
        totalParcialidad: money(totalOf(jubilacion)),
        montoDiario: money(dec(data.montoDiario)),
        ingresoAcumulable: money(gravadoOf(jubilacion)),
        ingresoNoAcumulable: '0.00',
      };
    }
  }
  return totals;
}

/** NumDiasPagados: an integer or exactly three decimals (nomina12.xsd pattern). */
export function diasText(value: number | string): string {
  const d = dec(value);
  return d.isInteger() ? d.toFixed(0) : d.toFixed(3);
}
