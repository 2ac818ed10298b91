import type { Element } from '@xmldom/xmldom';
import { children, NS } from '../xml/dom';
import type { CadenaWriter } from './writer';

const N = NS.nomina12;

/** Mirrors nomina12.xslt (cfdi40.md §7.6). */
export function writeNomina12(w: CadenaWriter, el: Element): void {
  w.fields(el, [
    'Version', 'TipoNomina', 'FechaPago', 'FechaInicialPago', 'FechaFinalPago', 'NumDiasPagados', 'TotalPercepciones?',
    'TotalDeducciones?', 'TotalOtrosPagos?',
  ]);
  for (const e of children(el, N, 'Emisor')) {
    w.fields(e, ['Curp?', 'RegistroPatronal?', 'RfcPatronOrigen?']);
    for (const s of children(e, N, 'EntidadSNCF')) w.fields(s, ['OrigenRecurso', 'MontoRecursoPropio?']);
  }
  for (const r of children(el, N, 'Receptor')) {
    w.fields(r, [
      'Curp', 'NumSeguridadSocial?', 'FechaInicioRelLaboral?', 'Antigüedad?', 'TipoContrato', 'Sindicalizado?',
      'TipoJornada?', 'TipoRegimen', 'NumEmpleado', 'Departamento?', 'Puesto?', 'RiesgoPuesto?', 'PeriodicidadPago',
      'Banco?', 'CuentaBancaria?', 'SalarioBaseCotApor?', 'SalarioDiarioIntegrado?', 'ClaveEntFed',
    ]);
    for (const s of children(r, N, 'SubContratacion')) w.fields(s, ['RfcLabora', 'PorcentajeTiempo']);
  }
  for (const p of children(el, N, 'Percepciones')) {
    w.fields(p, ['TotalSueldos?', 'TotalSeparacionIndemnizacion?', 'TotalJubilacionPensionRetiro?', 'TotalGravado', 'TotalExento']);
    for (const perc of children(p, N, 'Percepcion')) {
      w.fields(perc, ['TipoPercepcion', 'Clave', 'Concepto', 'ImporteGravado', 'ImporteExento']);
      for (const a of children(perc, N, 'AccionesOTitulos')) w.fields(a, ['ValorMercado', 'PrecioAlOtorgarse']);
      for (const h of children(perc, N, 'HorasExtra')) w.fields(h, ['Dias', 'TipoHoras', 'HorasExtra', 'ImportePagado']);
    }
    for (const j of children(p, N, 'JubilacionPensionRetiro')) {
      w.fields(j, ['TotalUnaExhibicion?', 'TotalParcialidad?', 'MontoDiario?', 'IngresoAcumulable', 'IngresoNoAcumulable']);
    }
    for (const s of children(p, N, 'SeparacionIndemnizacion')) {
      w.fields(s, ['TotalPagado', 'NumAñosServicio', 'UltimoSueldoMensOrd', 'IngresoAcumulable', 'IngresoNoAcumulable']);
    }
  }
  for (const d of children(el, N, 'Deducciones')) {
    w.fields(d, ['TotalOtrasDeducciones?', 'TotalImpuestosRetenidos?']);
    for (const ded of children(d, N, 'Deduccion')) w.fields(ded, ['TipoDeduccion', 'Clave', 'Concepto', 'Importe']);
  }
  for (const o of children(el, N, 'OtrosPagos')) {
    for (const op of children(o, N, 'OtroPago')) {
      w.fields(op, ['TipoOtroPago', 'Clave', 'Concepto', 'Importe']);
      for (const s of children(op, N, 'SubsidioAlEmpleo')) w.req(s, 'SubsidioCausado');
      for (const c of children(op, N, 'CompensacionSaldosAFavor')) w.fields(c, ['SaldoAFavor', 'Año', 'RemanenteSalFav']);
    }
  }
  for (const i of children(el, N, 'Incapacidades')) {
    for (const inc of children(i, N, 'Incapacidad')) w.fields(inc, ['DiasIncapacidad', 'TipoIncapacidad', 'ImporteMonetario?']);
  }
}
