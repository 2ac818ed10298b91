import { dec, fixed } from '../decimal/money';
import { antiguedad } from '../nomina/antiguedad';
import { computeNomina, diasText, type NominaTotals } from '../nomina/compute-nomina';
import type { Amount, BuildOptions, NominaInput, NominaPercepcion } from '../types';
import {
  addEmisor,
  addReceptor,
  addRelacionados,
  headerAttributes,
  serialize,
  startComprobante,
} from './comprobante';
import type { XmlElement } from './builder';
import { NS } from './dom';
import { xmlText } from './text';

const NOMINA = {
  prefix: 'nomina12',
  uri: NS.nomina12,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/nomina/nomina12.xsd',
};
const N = NS.nomina12;

export interface BuiltNomina {
  xml: string;
  totals: NominaTotals;
}

type Attrs = Record<string, string | undefined>;
const defined = (a: Attrs): Record<string, string> =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as Record<string, string>;
const money = (v: Amount | undefined): string | undefined => (v === undefined ? undefined : fixed(dec(v), 2));
/** AccionesOTitulos values: up to 6 decimals as sent, never in exponent notation. */
const sixDecimals = (v: Amount): string => dec(v).toDecimalPlaces(6).toFixed();

/** Payroll receipt (N) with Nómina 1.2 (cfdi40.md §7): one concept, every total and the Antigüedad computed. */
export function buildNominaXml(input: NominaInput, options: BuildOptions): BuiltNomina {
  const t = computeNomina(input);
  const e = input.employee;
  const p = input.period;
  const root = startComprobante(
    {
      ...headerAttributes(input, options),
      SubTotal: t.subTotal,
      Descuento: t.descuento,
      Moneda: 'MXN',
      Total: t.total,
      TipoDeComprobante: 'N',
      MetodoPago: 'PUE',
      LugarExpedicion: input.issuer.zip,
    },
    NOMINA,
  );
  for (const r of input.relatedDocuments ?? []) addRelacionados(root, r.tipoRelacion, r.uuids);
  addEmisor(root, input.issuer);
  addReceptor(root, { rfc: e.rfc, name: e.name, zip: e.zip, regimenFiscal: '605' }, 'CN01');
  root.ele(NS.cfdi, 'cfdi:Conceptos').ele(
    NS.cfdi,
    'cfdi:Concepto',
    defined({
      ClaveProdServ: '84111505',
      Cantidad: '1',
      ClaveUnidad: 'ACT',
      Descripcion: 'Pago de nómina',
      ValorUnitario: t.subTotal,
      Importe: t.subTotal,
      Descuento: t.descuento,
      ObjetoImp: '01',
    }),
  );
  const nomina = root.ele(NS.cfdi, 'cfdi:Complemento').ele(
    N,
    'nomina12:Nomina',
    defined({
      Version: '1.2',
      TipoNomina: p.tipoNomina,
      FechaPago: p.fechaPago,
      FechaInicialPago: p.fechaInicialPago,
      FechaFinalPago: p.fechaFinalPago,
      NumDiasPagados: diasText(p.numDiasPagados),
      TotalPercepciones: t.totalPercepciones,
      TotalDeducciones: t.totalDeducciones,
      TotalOtrosPagos: t.totalOtrosPagos,
    }),
  );
  if (input.registroPatronal !== undefined || input.employerCurp !== undefined) {
    nomina.ele(
      N,
      'nomina12:Emisor',
      defined({ Curp: input.employerCurp, RegistroPatronal: input.registroPatronal }),
    );
  }
  nomina.ele(
    N,
    'nomina12:Receptor',
    defined({
      Curp: e.curp,
      NumSeguridadSocial: e.numSeguridadSocial,
      FechaInicioRelLaboral: e.fechaInicioRelLaboral,
      Antigüedad:
        e.fechaInicioRelLaboral !== undefined
          ? antiguedad(e.fechaInicioRelLaboral, p.fechaFinalPago, e.antiguedadFormat)
          : undefined,
      TipoContrato: e.tipoContrato,
      Sindicalizado: e.sindicalizado === undefined ? undefined : e.sindicalizado ? 'Sí' : 'No',
      TipoJornada: e.tipoJornada,
      TipoRegimen: e.tipoRegimen,
      NumEmpleado: xmlText('employee.numEmpleado', e.numEmpleado),
      Departamento:
        e.departamento !== undefined ? xmlText('employee.departamento', e.departamento) : undefined,
      Puesto: e.puesto !== undefined ? xmlText('employee.puesto', e.puesto) : undefined,
      RiesgoPuesto: e.riesgoPuesto,
      PeriodicidadPago: e.periodicidadPago,
      Banco: e.banco,
      CuentaBancaria: e.cuentaBancaria,
      SalarioBaseCotApor: money(e.salarioBaseCotApor),
      SalarioDiarioIntegrado: money(e.salarioDiarioIntegrado),
      ClaveEntFed: e.claveEntFed,
    }),
  );
  if (input.percepciones?.length) addPercepciones(nomina, input.percepciones, t);
  if (input.deducciones?.length) {
    const deducciones = nomina.ele(
      N,
      'nomina12:Deducciones',
      defined({
        TotalOtrasDeducciones: t.totalOtrasDeducciones,
        TotalImpuestosRetenidos: t.totalImpuestosRetenidos,
      }),
    );
    input.deducciones.forEach((d, i) =>
      deducciones.ele(N, 'nomina12:Deduccion', {
        TipoDeduccion: d.tipo,
        Clave: xmlText(`deducciones[${i}].clave`, d.clave),
        Concepto: xmlText(`deducciones[${i}].concepto`, d.concepto),
        Importe: money(d.importe)!,
      }),
    );
  }
  if (input.otrosPagos?.length) {
    const otros = nomina.ele(N, 'nomina12:OtrosPagos');
    input.otrosPagos.forEach((o, i) => {
      const el = otros.ele(N, 'nomina12:OtroPago', {
        TipoOtroPago: o.tipo,
        Clave: xmlText(`otrosPagos[${i}].clave`, o.clave),
        Concepto: xmlText(`otrosPagos[${i}].concepto`, o.concepto),
        Importe: money(o.importe)!,
      });
      if (o.tipo === '002') {
        if (o.subsidioCausado === undefined)
          throw new RangeError(`otrosPagos[${i}].subsidioCausado is required for tipo 002 (NOM218)`);
        el.ele(N, 'nomina12:SubsidioAlEmpleo', { SubsidioCausado: money(o.subsidioCausado)! });
      }
      const c = o.compensacionSaldosAFavor;
      if (c)
        el.ele(N, 'nomina12:CompensacionSaldosAFavor', {
          SaldoAFavor: money(c.saldoAFavor)!,
          Año: String(c.anio),
          RemanenteSalFav: money(c.remanenteSalFav)!,
        });
    });
  }
  if (input.incapacidades?.length) {
    const inc = nomina.ele(N, 'nomina12:Incapacidades');
    for (const i of input.incapacidades) {
      inc.ele(
        N,
        'nomina12:Incapacidad',
        defined({
          DiasIncapacidad: String(i.dias),
          TipoIncapacidad: i.tipo,
          ImporteMonetario: money(i.importe),
        }),
      );
    }
  }
  return { xml: serialize(root), totals: t };
}

function addPercepciones(nomina: XmlElement, list: NominaPercepcion[], t: NominaTotals): void {
  const percepciones = nomina.ele(
    N,
    'nomina12:Percepciones',
    defined({
      TotalSueldos: t.totalSueldos,
      TotalSeparacionIndemnizacion: t.totalSeparacionIndemnizacion,
      TotalJubilacionPensionRetiro: t.totalJubilacionPensionRetiro,
      TotalGravado: t.totalGravado,
      TotalExento: t.totalExento,
    }),
  );
  list.forEach((p, i) => {
    const el = percepciones.ele(N, 'nomina12:Percepcion', {
      TipoPercepcion: p.tipo,
      Clave: xmlText(`percepciones[${i}].clave`, p.clave),
      Concepto: xmlText(`percepciones[${i}].concepto`, p.concepto),
      ImporteGravado: money(p.importeGravado)!,
      ImporteExento: money(p.importeExento)!,
    });
    if (p.accionesOTitulos) {
      el.ele(N, 'nomina12:AccionesOTitulos', {
        ValorMercado: sixDecimals(p.accionesOTitulos.valorMercado),
        PrecioAlOtorgarse: sixDecimals(p.accionesOTitulos.precioAlOtorgarse),
      });
    }
    for (const h of p.horasExtra ?? []) {
      el.ele(N, 'nomina12:HorasExtra', {
        Dias: String(h.dias),
        TipoHoras: h.tipoHoras,
        HorasExtra: String(h.horasExtra),
        ImportePagado: money(h.importePagado)!,
      });
    }
  });
  const j = t.jubilacion;
  if (j) {
    percepciones.ele(
      N,
      'nomina12:JubilacionPensionRetiro',
      defined({
        TotalUnaExhibicion: j.totalUnaExhibicion,
        TotalParcialidad: j.totalParcialidad,
        MontoDiario: j.montoDiario,
        IngresoAcumulable: j.ingresoAcumulable,
        IngresoNoAcumulable: j.ingresoNoAcumulable,
      }),
    );
  }
  const s = t.separacion;
  if (s) {
    percepciones.ele(N, 'nomina12:SeparacionIndemnizacion', {
      TotalPagado: s.totalPagado,
      NumAñosServicio: s.numAniosServicio,
      UltimoSueldoMensOrd: s.ultimoSueldoMensOrd,
      IngresoAcumulable: s.ingresoAcumulable,
      IngresoNoAcumulable: s.ingresoNoAcumulable,
    });
  }
}
