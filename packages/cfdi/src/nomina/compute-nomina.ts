import { dec, fixed, sum, ZERO, type Dec } from '../decimal/money';
import type { NominaInput } from '../types';

/** Percepciones that need nodes this engine does not build (separación, jubilación, acciones). */
export const UNSUPPORTED_PERCEPCIONES = ['022', '023', '025', '039', '044', '045'];

export interface NominaTotals {
  totalSueldos: string;
  totalGravado: string;
  totalExento: string;
  totalPercepciones: string;
  totalOtrasDeducciones?: string;
  totalImpuestosRetenidos?: string;
  totalDeducciones?: string;
  totalOtrosPagos?: string;
  /** Concepto ValorUnitario/Importe and Comprobante SubTotal. */
  subTotal: string;
  descuento?: string;
  total: string;
}

const money = (v: Dec): string => fixed(v, 2);

function positive(label: string, value: Dec): Dec {
  if (!value.gt(ZERO)) throw new RangeError(`${label} must be greater than 0`);
  if (value.decimalPlaces() > 2) throw new RangeError(`${label} has more than 2 decimals`);
  return value;
}

/**
 * Nómina 1.2 totals (cfdi40.md §7.4): TotalSueldos = Σ percepciones (the types that would go
 * to separación/jubilación are refused), TotalDeducciones = otras + ISR (type 002),
 * SubTotal = TotalPercepciones + TotalOtrosPagos, Descuento = TotalDeducciones.
 */
export function computeNomina(input: NominaInput): NominaTotals {
  if (input.percepciones.length === 0 && (input.otrosPagos ?? []).length === 0) {
    throw new RangeError('a payroll receipt needs percepciones or otrosPagos (NOM31)');
  }
  let gravado = ZERO;
  let exento = ZERO;
  input.percepciones.forEach((p, i) => {
    if (UNSUPPORTED_PERCEPCIONES.includes(p.tipo)) throw new RangeError(`percepciones[${i}].tipo ${p.tipo} is not supported`);
    const g = dec(p.importeGravado);
    const e = dec(p.importeExento);
    positive(`percepciones[${i}] gravado + exento`, g.plus(e));
    gravado = gravado.plus(g);
    exento = exento.plus(e);
  });
  const deducciones = input.deducciones ?? [];
  const isr = deducciones.filter((d) => d.tipo === '002').map((d, i) => positive(`deducciones[${i}].importe`, dec(d.importe)));
  const otras = deducciones.filter((d) => d.tipo !== '002').map((d, i) => positive(`deducciones[${i}].importe`, dec(d.importe)));
  const otrosPagos = (input.otrosPagos ?? []).map((o, i) => positive(`otrosPagos[${i}].importe`, dec(o.importe)));
  const totalPercepciones = gravado.plus(exento);
  const totalDeducciones = sum(isr).plus(sum(otras));
  const subTotal = totalPercepciones.plus(sum(otrosPagos));
  if (totalDeducciones.gt(subTotal)) throw new RangeError('deducciones exceed percepciones plus otros pagos');
  return {
    totalSueldos: money(totalPercepciones),
    totalGravado: money(gravado),
    totalExento: money(exento),
    totalPercepciones: money(totalPercepciones),
    ...(otras.length ? { totalOtrasDeducciones: money(sum(otras)) } : {}),
    ...(isr.length ? { totalImpuestosRetenidos: money(sum(isr)) } : {}),
    ...(deducciones.length ? { totalDeducciones: money(totalDeducciones) } : {}),
    ...(otrosPagos.length ? { totalOtrosPagos: money(sum(otrosPagos)) } : {}),
    subTotal: money(subTotal),
    ...(deducciones.length ? { descuento: money(totalDeducciones) } : {}),
    total: money(subTotal.minus(totalDeducciones)),
  };
}

/** NumDiasPagados: an integer or exactly three decimals (nomina12.xsd pattern). */
export function diasText(value: number | string): string {
  const d = dec(value);
  return d.isInteger() ? d.toFixed(0) : d.toFixed(3);
}
