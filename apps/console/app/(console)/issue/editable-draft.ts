import type { IssueFormBody } from '../../../src/issuing';

/** A stored draft request as the issue form's state, or null when the form cannot show it. */
export function editableBody(request: Record<string, unknown>): IssueFormBody | null {
  const items = Array.isArray(request.items) ? (request.items as Record<string, unknown>[]) : [];
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  if (!items.length || !items.every((item) => typeof item.productId === 'string')) return null;
  if (!request.customerId && !request.relatedInvoiceId) return null;
  return {
    merchantId: text(request.merchantId),
    customerId: text(request.customerId),
    metodoPago: text(request.metodoPago) || 'PUE',
    formaPago: text(request.formaPago),
    usoCfdi: text(request.usoCfdi),
    ...(request.moneda && request.moneda !== 'MXN'
      ? { moneda: text(request.moneda), tipoCambio: String(request.tipoCambio ?? '') }
      : {}),
    ...(request.relatedInvoiceId
      ? { relatedInvoiceId: text(request.relatedInvoiceId), tipoRelacion: text(request.tipoRelacion) || '01' }
      : {}),
    items: items.map((item) => ({ productId: text(item.productId), quantity: String(item.quantity ?? 1) })),
  };
}
