import { dec } from '../decimal/money';
import { amountInWords } from './amount-in-words';
import {
  ensureSpace,
  field,
  GRAY,
  MARGIN,
  sectionTitle,
  tableHeader,
  twoColumns,
  WIDTH,
  type ColumnHeading,
} from './layout';
import type { NominaPrint } from './nomina-view';

type Doc = PDFKit.PDFDocument;
type Attrs = Record<string, string>;

const PERIODICIDADES: Attrs = {
  '01': 'Diario',
  '02': 'Semanal',
  '03': 'Catorcenal',
  '04': 'Quincenal',
  '05': 'Mensual',
  '06': 'Bimestral',
  '07': 'Unidad obra',
  '08': 'Comisión',
  '09': 'Precio alzado',
  '10': 'Decenal',
  '99': 'Otra periodicidad',
};
const HORAS: Attrs = { '01': 'dobles', '02': 'triples', '03': 'simples' };
const money = (value: string | undefined) => (value === undefined ? '' : `$${value}`);
const named = (names: Attrs, key: string | undefined) =>
  key === undefined ? undefined : names[key] ? `${key} - ${names[key]}` : key;

interface Column extends ColumnHeading {
  value: (row: Attrs) => string;
}

/** A small table: grey header, one line per row (wrapped when long), repeated header after a page break. */
function table(doc: Doc, columns: Column[], rows: Attrs[]): void {
  const head = () => tableHeader(doc, columns);
  ensureSpace(doc, 30);
  head();
  doc.font('Helvetica').fontSize(7);
  for (const row of rows) {
    const texts = columns.map((c) => c.value(row));
    const height =
      Math.max(...texts.map((t, i) => doc.heightOfString(t || ' ', { width: columns[i]!.width - 4 }))) + 3;
    if (doc.y + height > doc.page.height - MARGIN - 14) {
      doc.addPage();
      head();
      doc.font('Helvetica').fontSize(7);
    }
    const y = doc.y;
    let x = MARGIN;
    texts.forEach((t, i) => {
      doc
        .fillColor('black')
        .text(t, x + 2, y + 1, { width: columns[i]!.width - 4, align: columns[i]!.align ?? 'left' });
      x += columns[i]!.width;
    });
    doc
      .moveTo(MARGIN, y + height)
      .lineTo(MARGIN + WIDTH, y + height)
      .strokeColor('#dddddd')
      .lineWidth(0.3)
      .stroke();
    doc.y = y + height + 1;
  }
}

function totalsRow(doc: Doc, rows: Array<[string, string | undefined, boolean?]>): void {
  ensureSpace(doc, rows.length * 12 + 10);
  doc.moveDown(0.3);
  for (const [name, value, bold] of rows) {
    if (value === undefined) continue;
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 9 : 8)
      .fillColor('black');
    doc.text(name, MARGIN + 250, y, { width: 200, align: 'right' });
    doc.text(money(value), MARGIN + 455, y, { width: 85, align: 'right' });
  }
}

/**
 * The recibo de nómina: employee and employer data, the period, percepciones (taxed and exempt), deducciones and
 * otros pagos tables, incapacidades and horas extra, and the net pay in figures and words.
 */
export function nominaSections(doc: Doc, n: NominaPrint, comprobante: Attrs): void {
  const a = n.attrs;
  const r = n.receptor;
  sectionTitle(doc, 'Datos del empleado');
  twoColumns(
    doc,
    [
      ['Número de empleado', r.NumEmpleado],
      ['CURP', r.Curp],
      ['Número de seguridad social', r.NumSeguridadSocial],
      ['Fecha de inicio de la relación laboral', r.FechaInicioRelLaboral],
      ['Antigüedad', r['Antigüedad']],
      ['Departamento', r.Departamento],
      ['Puesto', r.Puesto],
      ['Riesgo de puesto', r.RiesgoPuesto],
    ],
    [
      ['Tipo de contrato', r.TipoContrato],
      ['Tipo de régimen', r.TipoRegimen],
      ['Tipo de jornada', r.TipoJornada],
      ['Sindicalizado', r.Sindicalizado],
      ['Salario base de cotización', money(r.SalarioBaseCotApor) || undefined],
      ['Salario diario integrado', money(r.SalarioDiarioIntegrado) || undefined],
      ['Banco / cuenta', [r.Banco, r.CuentaBancaria].filter(Boolean).join(' ') || undefined],
      ['Entidad federativa', r.ClaveEntFed],
    ],
  );
  field(doc, 'Registro patronal', n.emisor.RegistroPatronal, MARGIN, WIDTH);
  field(doc, 'CURP del patrón', n.emisor.Curp, MARGIN, WIDTH);

  sectionTitle(doc, 'Periodo de pago');
  twoColumns(
    doc,
    [
      ['Tipo de nómina', a.TipoNomina === 'E' ? 'E - Extraordinaria' : 'O - Ordinaria'],
      ['Periodicidad', named(PERIODICIDADES, r.PeriodicidadPago)],
      ['Fecha de pago', a.FechaPago],
    ],
    [
      ['Del', a.FechaInicialPago],
      ['Al', a.FechaFinalPago],
      ['Días pagados', a.NumDiasPagados],
    ],
  );

  if (n.percepciones.rows.length) {
    sectionTitle(doc, 'Percepciones');
    table(
      doc,
      [
        { title: 'Tipo', width: 36, value: (p) => p.TipoPercepcion ?? '' },
        { title: 'Clave', width: 60, value: (p) => p.Clave ?? '' },
        { title: 'Concepto', width: 214, value: (p) => p.Concepto ?? '' },
        { title: 'Gravado', width: 75, align: 'right', value: (p) => money(p.ImporteGravado) },
        { title: 'Exento', width: 75, align: 'right', value: (p) => money(p.ImporteExento) },
        {
          title: 'Importe',
          width: 80,
          align: 'right',
          value: (p) =>
            `$${dec(p.ImporteGravado ?? 0)
              .plus(dec(p.ImporteExento ?? 0))
              .toFixed(2)}`,
        },
      ],
      n.percepciones.rows,
    );
    const t = n.percepciones.totals;
    totalsRow(doc, [
      ['Total sueldos', t.TotalSueldos],
      ['Total separación e indemnización', t.TotalSeparacionIndemnizacion],
      ['Total jubilación, pensión o retiro', t.TotalJubilacionPensionRetiro],
      ['Total gravado', t.TotalGravado],
      ['Total exento', t.TotalExento],
      ['Total percepciones', a.TotalPercepciones, true],
    ]);
    for (const h of n.percepciones.horasExtra) {
      field(
        doc,
        `Horas extra (${h.Clave})`,
        `${h.HorasExtra} horas ${HORAS[h.TipoHoras ?? ''] ?? h.TipoHoras} en ${h.Dias} días, pagado ${money(h.ImportePagado)}`,
        MARGIN,
        WIDTH,
      );
    }
    const s = n.percepciones.separacion;
    if (s)
      field(
        doc,
        'Separación e indemnización',
        `total pagado ${money(s.TotalPagado)}; ${s['NumAñosServicio']} años de servicio; último sueldo mensual ordinario ${money(s.UltimoSueldoMensOrd)}; ingreso acumulable ${money(s.IngresoAcumulable)}; no acumulable ${money(s.IngresoNoAcumulable)}`,
        MARGIN,
        WIDTH,
      );
    const j = n.percepciones.jubilacion;
    if (j)
      field(
        doc,
        'Jubilación, pensión o retiro',
        [
          j.TotalUnaExhibicion && `una exhibición ${money(j.TotalUnaExhibicion)}`,
          j.TotalParcialidad && `parcialidad ${money(j.TotalParcialidad)}`,
          j.MontoDiario && `monto diario ${money(j.MontoDiario)}`,
          `ingreso acumulable ${money(j.IngresoAcumulable)}`,
          `no acumulable ${money(j.IngresoNoAcumulable)}`,
        ]
          .filter(Boolean)
          .join('; '),
        MARGIN,
        WIDTH,
      );
  }

  if (n.deducciones.rows.length) {
    sectionTitle(doc, 'Deducciones');
    table(
      doc,
      [
        { title: 'Tipo', width: 36, value: (d) => d.TipoDeduccion ?? '' },
        { title: 'Clave', width: 60, value: (d) => d.Clave ?? '' },
        { title: 'Concepto', width: 364, value: (d) => d.Concepto ?? '' },
        { title: 'Importe', width: 80, align: 'right', value: (d) => money(d.Importe) },
      ],
      n.deducciones.rows,
    );
    totalsRow(doc, [
      ['Impuestos retenidos (ISR)', n.deducciones.totals.TotalImpuestosRetenidos],
      ['Otras deducciones', n.deducciones.totals.TotalOtrasDeducciones],
      ['Total deducciones', a.TotalDeducciones, true],
    ]);
  }

  if (n.otrosPagos.length) {
    sectionTitle(doc, 'Otros pagos');
    table(
      doc,
      [
        { title: 'Tipo', width: 36, value: (o) => o.TipoOtroPago ?? '' },
        { title: 'Clave', width: 60, value: (o) => o.Clave ?? '' },
        { title: 'Concepto', width: 264, value: (o) => o.Concepto ?? '' },
        { title: 'Subsidio causado', width: 100, align: 'right', value: (o) => money(o.SubsidioCausado) },
        { title: 'Importe', width: 80, align: 'right', value: (o) => money(o.Importe) },
      ],
      n.otrosPagos,
    );
    totalsRow(doc, [['Total otros pagos', a.TotalOtrosPagos, true]]);
  }

  if (n.incapacidades.length) {
    sectionTitle(doc, 'Incapacidades');
    for (const i of n.incapacidades)
      field(
        doc,
        `Tipo ${i.TipoIncapacidad}`,
        `${i.DiasIncapacidad} días${i.ImporteMonetario ? `, importe ${money(i.ImporteMonetario)}` : ''}`,
        MARGIN,
        WIDTH,
      );
  }

  sectionTitle(doc, 'Neto a pagar');
  totalsRow(doc, [
    ['Percepciones + otros pagos', comprobante.SubTotal],
    ['Deducciones', comprobante.Descuento],
    ['Neto a pagar', comprobante.Total, true],
  ]);
  doc
    .moveDown(0.3)
    .font('Helvetica-Bold')
    .fontSize(8)
    .fillColor('black')
    .text(`Importe con letra: ${amountInWords(comprobante.Total ?? '0')}`, MARGIN, doc.y, { width: WIDTH });
  doc
    .font('Helvetica')
    .fontSize(7)
    .fillColor(GRAY)
    .text(
      'Recibí de conformidad el pago de la cantidad neta indicada, sin que se me adeude cantidad alguna por los conceptos de este recibo.',
      MARGIN,
      doc.moveDown(1.5).y,
      { width: WIDTH },
    );
}
