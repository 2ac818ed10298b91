import type { TrasladoInput, TrasladoItem } from '@cfdi/cfdi';
import type { DocumentRecord } from './document-row';
import { cartaPorteOf, lifecycleView, type CartaPorteHolder, type DocumentUrlSigner } from './invoice-view';

type StoredTraslado = Partial<TrasladoInput> & CartaPorteHolder;

/**
 * What a traslado's views read of its stored input: its goods and the Carta Porte in brief, not the complement's
 * stops, goods and figures (the record crosses Temporal).
 */
export function trasladoRecordInput(input: Record<string, unknown> | null): Record<string, unknown> {
  const i = (input ?? {}) as StoredTraslado;
  const cartaPorteSummary = cartaPorteOf(i);
  return { items: i.items ?? [], ...(cartaPorteSummary ? { cartaPorteSummary } : {}) };
}

/**
 * The Traslado resource (a CFDI of type T): the merchant's own goods moved, with no amount, the receiver being the
 * merchant itself, and its Carta Porte in brief; the lifecycle every document has.
 */
export function toTrasladoView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  const input = (row.input ?? {}) as StoredTraslado;
  return {
    id: row.id,
    object: 'traslado' as const,
    livemode: row.livemode,
    status: row.status,
    uuid: row.uuid,
    serie: row.serie,
    folio: row.folio === null ? null : Number(row.folio),
    folioText: row.folio_text,
    merchantId: row.merchant_id,
    receiver: row.receiver,
    items: (input.items ?? []).map((item: TrasladoItem) => ({
      productCode: item.productCode,
      unitCode: item.unitCode,
      unit: item.unit ?? null,
      description: item.description,
      quantity: Number(item.quantity),
      noIdentificacion: item.noIdentificacion ?? null,
    })),
    cartaPorte: cartaPorteOf(input),
    fecha: row.fecha,
    ...lifecycleView(row, sign),
  };
}

export type TrasladoView = ReturnType<typeof toTrasladoView>;
