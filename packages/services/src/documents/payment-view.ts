import { lifecycleView, type DocumentUrlSigner } from './invoice-view';
import { money, type DocumentRecord } from './document-row';

/** What the stored engine input says of the currencies (absent on payments stored before issue #40: all MXN). */
interface PaymentCurrencies {
  tipoCambioP?: string;
  equivalenciaDR?: string;
  impPagado?: string;
  invoice?: { moneda?: string };
}

/**
 * The Payment resource (payment complement) as api-spec.md lists it. `monto` is in `currency` (MonedaP);
 * `saldoAnterior`, `impPagado` and `saldoInsoluto` in `invoiceCurrency` (MonedaDR).
 */
export function toPaymentView(row: DocumentRecord, sign?: DocumentUrlSigner) {
  const input = (row.input ?? {}) as PaymentCurrencies;
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
    impPagado: money(input.impPagado ?? row.monto)!,
    saldoInsoluto: money(row.saldo_insoluto)!,
    currency: row.currency,
    tipoCambioP: input.tipoCambioP !== undefined ? Number(input.tipoCambioP) : null,
    invoiceCurrency: input.invoice?.moneda ?? 'MXN',
    equivalenciaDR: Number(input.equivalenciaDR ?? 1),
    ...lifecycleView(row, sign),
  };
}

export type PaymentView = ReturnType<typeof toPaymentView>;
