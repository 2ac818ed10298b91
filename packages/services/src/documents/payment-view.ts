import { lifecycleView, type DocumentUrlSigner } from './invoice-view';
import { money, type DocumentRecord } from './document-row';

/** The Payment resource (payment complement) as api-spec.md lists it. */
export function toPaymentView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  return {
    id: row.id,
    object: 'payment' as const,
    livemode: row.livemode,
    status: row.status,
    invoiceId: row.invoice_id!,
    merchantId: row.merchant_id,
    customerId: row.customer_id ?? null,
    uuid: row.uuid,
    numParcialidad: row.num_parcialidad!,
    monto: money(row.monto)!,
    formaPago: row.forma_pago ?? '',
    fechaPago: row.fecha_pago!,
    saldoAnterior: money(row.saldo_anterior)!,
    saldoInsoluto: money(row.saldo_insoluto)!,
    currency: row.currency,
    ...lifecycleView(row, sign),
  };
}

export type PaymentView = ReturnType<typeof toPaymentView>;
