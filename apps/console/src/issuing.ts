import 'server-only';
import { ValidationError, type StampingDeps } from '@cfdi/services';
import { startStamping } from '@cfdi/temporal-contract/client';
import { platform } from './platform';

/** What preparing, drafting and stamping a document needs, as the API passes it (config, catalogs, clock). */
export async function stampingDeps(): Promise<StampingDeps> {
  const { config, catalogs } = await platform();
  return { config, catalogs };
}

/**
 * Starts the stamp workflow of a document the services just stored `stamping` and waits as long as the API waits; its
 * page then shows how it ended. A start that fails is not lost: the resume-stalled sweep starts it.
 */
export async function startStampingOf(documentId: string): Promise<void> {
  const { config, temporal } = await platform();
  await startStamping(
    temporal,
    { documentId, reconciliation: config.reconciliation },
    { taskQueue: config.temporal.taskQueue, waitMs: config.stampWaitMs },
  ).catch((error: Error) => console.error(`starting the stamp of ${documentId} failed: ${error.message}`));
}

/** The kinds the issue form drafts: an invoice, or a credit note of a stamped invoice. */
export type DraftKind = 'invoice' | 'credit_note';

/** The issue form's state as the client sends it: saved records only (customer and products by id). */
export interface IssueFormBody {
  merchantId: string;
  /** An invoice's; a credit note goes to its invoice's receiver. */
  customerId: string;
  metodoPago: string;
  formaPago: string;
  usoCfdi: string;
  /** An invoice's c_Moneda (MXN when absent) and, for another currency, its exchange rate as typed (MXN per unit). */
  moneda?: string;
  tipoCambio?: string;
  /** A credit note's invoice and relation (01 nota de crédito, 03 devolución). */
  relatedInvoiceId?: string;
  tipoRelacion?: string;
  items: { productId: string; quantity: string }[];
}

/**
 * The form's state as the kind's create body (the API's shape), with nothing but the fields the form has: the
 * services check the rest (references, catalogs, the related invoice, the tax engine) and name each problem's field.
 */
export function draftBodyOf(kind: DraftKind, form: IssueFormBody): Record<string, unknown> {
  const items = (Array.isArray(form.items) ? form.items : []).map((item, i) => {
    const quantity = Number(String(item.quantity).replace(',', '.'));
    if (!Number.isFinite(quantity) || quantity <= 0)
      throw ValidationError.field(`/items/${i}/quantity`, 'must be a number greater than 0');
    return { productId: String(item.productId ?? ''), quantity };
  });
  const common = {
    merchantId: String(form.merchantId ?? ''),
    formaPago: String(form.formaPago ?? ''),
    ...(form.usoCfdi ? { usoCfdi: String(form.usoCfdi) } : {}),
    items,
  };
  if (kind === 'credit_note')
    return {
      ...common,
      relatedInvoiceId: String(form.relatedInvoiceId ?? ''),
      tipoRelacion: form.tipoRelacion === '03' ? '03' : '01',
    };
  // A credit note is in its invoice's currency; an invoice in MXN unless the form chose another, at its rate.
  const moneda = form.moneda ? String(form.moneda) : 'MXN';
  const tipoCambio = String(form.tipoCambio ?? '').trim();
  const rate = Number(tipoCambio.replace(',', '.'));
  if (moneda !== 'MXN' && tipoCambio && (!Number.isFinite(rate) || rate <= 0))
    throw ValidationError.field('/tipoCambio', 'must be a number greater than 0');
  return {
    ...common,
    customerId: String(form.customerId ?? ''),
    metodoPago: form.metodoPago === 'PPD' ? 'PPD' : 'PUE',
    // Without a rate the services name the missing /tipoCambio, as the API does.
    ...(moneda !== 'MXN' ? { moneda, ...(tipoCambio ? { tipoCambio: rate } : {}) } : {}),
  };
}
