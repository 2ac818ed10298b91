import { computeNomina, type NominaInput } from '@cfdi/cfdi';
import { lifecycleView, relatedDocumentsOf, type DocumentUrlSigner } from './invoice-view';
import type { DocumentRecord } from './document-row';

const amount = (value: string | undefined): number | null => (value === undefined ? null : Number(value));

/**
 * The Nómina resource: the employee as the receipt names them, the period, every total (recomputed from the stored
 * request with the engine that sealed it; subtotal, discount and net pay come from the sealed XML), and the
 * lifecycle every document has.
 */
export function toNominaView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  const input = row.input as unknown as NominaInput;
  const e = input.employee;
  const t = computeNomina(input);
  return {
    id: row.id,
    object: 'nomina' as const,
    livemode: row.livemode,
    status: row.status,
    uuid: row.uuid,
    serie: row.serie,
    folio: Number(row.folio),
    folioText: row.folio_text,
    merchantId: row.merchant_id,
    registroPatronal: input.registroPatronal ?? null,
    employee: {
      rfc: e.rfc,
      name: e.name,
      curp: e.curp,
      numEmpleado: e.numEmpleado,
      numSeguridadSocial: e.numSeguridadSocial ?? null,
      departamento: e.departamento ?? null,
      puesto: e.puesto ?? null,
      tipoContrato: e.tipoContrato,
      tipoRegimen: e.tipoRegimen,
      periodicidadPago: e.periodicidadPago,
    },
    period: { ...input.period, numDiasPagados: Number(input.period.numDiasPagados) },
    totals: {
      totalPercepciones: amount(t.totalPercepciones),
      totalSueldos: amount(t.totalSueldos),
      totalSeparacionIndemnizacion: amount(t.totalSeparacionIndemnizacion),
      totalJubilacionPensionRetiro: amount(t.totalJubilacionPensionRetiro),
      totalGravado: Number(t.totalGravado),
      totalExento: Number(t.totalExento),
      totalDeducciones: amount(t.totalDeducciones),
      totalOtrasDeducciones: amount(t.totalOtrasDeducciones),
      totalImpuestosRetenidos: amount(t.totalImpuestosRetenidos),
      totalOtrosPagos: amount(t.totalOtrosPagos),
    },
    currency: row.currency,
    subtotal: Number(row.subtotal),
    discount: Number(row.discount),
    /** Net pay: SubTotal − Descuento. */
    total: Number(row.total),
    ...(relatedDocumentsOf(row) ? { relatedDocuments: relatedDocumentsOf(row) } : {}),
    ...lifecycleView(row, sign),
  };
}

export type NominaView = ReturnType<typeof toNominaView>;
