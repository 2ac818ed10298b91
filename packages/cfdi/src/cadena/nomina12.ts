import { NS } from '../xml/dom';
import { kids, type XmlNode } from './tree';
import type { CadenaWriter } from './writer';

const N = NS.nomina12;

/** Mirrors nomina12.xslt (cfdi40.md §7.6). */
export function writeNomina12(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'Version',
    'TipoNomina',
    'FechaPago',
    'FechaInicialPago',
    'FechaFinalPago',
    'NumDiasPagados',
    'TotalPercepciones?',
    'TotalDeducciones?',
    'TotalOtrosPagos?',
  ]);
  for (const e of kids(el, N, 'Emisor')) {
    w.fields(e, ['Curp?', 'RegistroPatronal?', 'RfcPatronOrigen?']);
    for (const s of kids(e, N, 'EntidadSNCF')) w.fields(s, ['OrigenRecurso', 'MontoRecursoPropio?']);
  }
  for (const r of kids(el, N, 'Receptor')) {
    w.fields(r, [
      'Curp',
      'NumSeguridadSocial?',
      'FechaInicioRelLaboral?',
      'Antigüedad?',
      'TipoContrato',
      'Sindicalizado?',
      'TipoJornada?',
      'TipoRegimen',
      'NumEmpleado',
      'Departamento?',
      'Puesto?',
      'RiesgoPuesto?',
      'PeriodicidadPago',
      'Banco?',
      'CuentaBancaria?',
      'SalarioBaseCotApor?',
      'SalarioDiarioIntegrado?',
      'ClaveEntFed',
    ]);
    for (const s of kids(r, N, 'SubContratacion')) w.fields(s, ['RfcLabora', 'PorcentajeTiempo']);
  }
  for (const p of kids(el, N, 'Percepciones')) {
    w.fields(p, [
      'TotalSueldos?',
      'TotalSeparacionIndemnizacion?',
      'TotalJubilacionPensionRetiro?',
      'TotalGravado',
      'TotalExento',
    ]);
    for (const perc of kids(p, N, 'Percepcion')) {
      w.fields(perc, ['TipoPercepcion', 'Clave', 'Concepto', 'ImporteGravado', 'ImporteExento']);
      for (const a of kids(perc, N, 'AccionesOTitulos')) w.fields(a, ['ValorMercado', 'PrecioAlOtorgarse']);
      for (const h of kids(perc, N, 'HorasExtra'))
        w.fields(h, ['Dias', 'TipoHoras', 'HorasExtra', 'ImportePagado']);
    }
    for (const j of kids(p, N, 'JubilacionPensionRetiro')) {
      w.fields(j, [
        'TotalUnaExhibicion?',
        'TotalParcialidad?',
        'MontoDiario?',
        'IngresoAcumulable',
        'IngresoNoAcumulable',
      ]);
    }
    for (const s of kids(p, N, 'SeparacionIndemnizacion')) {
      w.fields(s, [
        'TotalPagado',
        'NumAñosServicio',
        'UltimoSueldoMensOrd',
        'IngresoAcumulable',
        'IngresoNoAcumulable',
      ]);
    }
  }
  for (const d of kids(el, N, 'Deducciones')) {
    w.fields(d, ['TotalOtrasDeducciones?', 'TotalImpuestosRetenidos?']);
    for (const ded of kids(d, N, 'Deduccion'))
      w.fields(ded, ['TipoDeduccion', 'Clave', 'Concepto', 'Importe']);
  }
  for (const o of kids(el, N, 'OtrosPagos')) {
    for (const op of kids(o, N, 'OtroPago')) {
      w.fields(op, ['TipoOtroPago', 'Clave', 'Concepto', 'Importe']);
      for (const s of kids(op, N, 'SubsidioAlEmpleo')) w.req(s, 'SubsidioCausado');
      for (const c of kids(op, N, 'CompensacionSaldosAFavor'))
        w.fields(c, ['SaldoAFavor', 'Año', 'RemanenteSalFav']);
    }
  }
  for (const i of kids(el, N, 'Incapacidades')) {
    for (const inc of kids(i, N, 'Incapacidad'))
      w.fields(inc, ['DiasIncapacidad', 'TipoIncapacidad', 'ImporteMonetario?']);
  }
}
