import { retentionTotals, type RetentionInput } from '@cfdi/cfdi';
import { lifecycleView, type DocumentUrlSigner } from './invoice-view';
import type { DocumentRecord } from './document-row';

const amount = (value: unknown): number | null => (value === undefined ? null : Number(value));

/**
 * The Retention resource (a Retenciones 2.0 withholding certificate): what was paid and withheld, to whom and for
 * which months, as the certificate states it, and the lifecycle every document has. Its files are the XML only.
 */
export function toRetentionView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  const input = row.input as unknown as RetentionInput;
  const r = input.receiver;
  const totals = retentionTotals(input);
  return {
    id: row.id,
    object: 'retention' as const,
    livemode: row.livemode,
    status: row.status,
    uuid: row.uuid,
    folio: row.folio === null ? null : Number(row.folio),
    folioInt: input.folioInt ?? null,
    merchantId: row.merchant_id,
    cveRetenc: input.cveRetenc,
    descRetenc: input.descRetenc ?? null,
    receiver:
      r.nacionalidad === 'Nacional'
        ? { nacionalidad: r.nacionalidad, rfc: r.rfc, name: r.name, zip: r.zip, curp: r.curp ?? null }
        : { nacionalidad: r.nacionalidad, name: r.name, numRegIdTrib: r.numRegIdTrib ?? null },
    period: input.period,
    totals: {
      montoTotOperacion: Number(totals.montoTotOperacion),
      montoTotGrav: Number(totals.montoTotGrav),
      montoTotExent: Number(totals.montoTotExent),
      montoTotRet: Number(totals.montoTotRet),
      utilidadBimestral: amount(input.totals.utilidadBimestral),
      isrCorrespondiente: amount(input.totals.isrCorrespondiente),
    },
    withholdings: (input.withholdings ?? []).map((w) => ({
      baseRet: amount(w.baseRet),
      impuestoRet: w.impuestoRet ?? null,
      montoRet: Number(w.montoRet),
      tipoPagoRet: w.tipoPagoRet,
    })),
    related: input.related ? { tipoRelacion: input.related.tipoRelacion, uuid: input.related.uuid } : null,
    fechaExp: row.fecha,
    ...lifecycleView(row, sign),
  };
}

export type RetentionView = ReturnType<typeof toRetentionView>;
