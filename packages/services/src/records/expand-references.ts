import type { InvoiceItem, Receiver } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError, type FieldError } from '../errors';
import type { Scope } from '../scope';
import { findCustomer, type CustomerRow } from './customers';
import { type ProductRow } from './products';
import { findRecords } from './record-store';

/** An item made from a saved product: its keys, text, price and taxes, with the quantity and optional overrides. */
export interface ProductItemRef {
  productId: string;
  quantity: number;
  /** Instead of the product's price, in the document's `pricesIncludeTax` sense. */
  unitPrice?: number;
  /** Instead of the product's description. */
  description?: string;
}

export type DocumentItemRequest = InvoiceItem | ProductItemRef;

/** The fields of a create request that may name saved records. */
export interface ReferencingBody {
  customerId?: string;
  receiver?: Receiver;
  usoCfdi?: string;
  pricesIncludeTax?: boolean;
  items?: DocumentItemRequest[];
  moneda?: unknown;
  tipoCambio?: unknown;
}

/** The request with every reference replaced by the data it names, and the customer it was made for. */
export type ExpandedBody<B extends ReferencingBody> = Omit<B, 'customerId' | 'items'> & {
  customerId: string | null;
  /** The customer's, when customerId named one. */
  receiver?: Receiver;
  /** Present when the request has items. */
  items: InvoiceItem[];
};

export type ReferencingType = 'invoice' | 'credit_note' | 'payment';

const isProductRef = (item: DocumentItemRequest): item is ProductItemRef => 'productId' in item;

/** The receiver a customer's documents carry: a copy, so a later edit of the customer never changes them. */
export const receiverOfCustomer = (customer: CustomerRow): Receiver => ({
  rfc: customer.rfc,
  name: customer.legal_name,
  zip: customer.zip,
  regimenFiscal: customer.regimen_fiscal,
});

/**
 * A saved customer named on a document about an invoice (a credit note, a payment complement) is that invoice's
 * receiver as the SAT knows it today, a move or a new régimen since included, so its current data is used; its RFC
 * must still be the invoice's (400 on `/customerId`).
 */
export function customerOfInvoice(customer: Receiver, invoiceReceiver: Receiver, document: string): Receiver {
  if (customer.rfc !== invoiceReceiver.rfc)
    throw ValidationError.field(
      '/customerId',
      `has RFC ${customer.rfc} but the invoice was issued to ${invoiceReceiver.rfc}; ${document} goes to the invoice's receiver`,
    );
  return customer;
}

/**
 * Replaces `customerId` by the receiver (and the default usoCfdi) it names and each item's `productId` by the item it
 * names, so the create paths validate and store a complete request, the same as one sent in full. An id that is
 * unknown, deleted, another account's or mode's (or any, for a key restricted to some merchants) is a 400 on its path.
 */
export async function expandDocumentReferences<B extends ReferencingBody>(
  em: EntityManager,
  scope: Scope,
  type: ReferencingType,
  body: B,
): Promise<ExpandedBody<B>> {
  const { customerId, ...rest } = body;
  const errors: FieldError[] = [];
  const expanded = { ...rest, customerId: customerId ?? null } as Record<string, unknown>;
  if (customerId !== undefined) {
    if (body.receiver !== undefined)
      errors.push({ path: '/customerId', message: 'send customerId or receiver, not both' });
    const customer = await customerOrNull(em, scope, customerId);
    if (!customer)
      errors.push({ path: '/customerId', message: `no customer "${customerId}" in this account and mode` });
    else {
      expanded.receiver = receiverOfCustomer(customer);
      if (type !== 'payment' && body.usoCfdi === undefined && customer.uso_cfdi)
        expanded.usoCfdi = customer.uso_cfdi;
    }
  } else if (type === 'invoice' && body.receiver === undefined) {
    errors.push({
      path: '/receiver',
      message: 'is required: send receiver, or customerId for a saved customer',
    });
  }
  if (body.items) {
    const items = await expandItems(em, scope, body.items, body, errors);
    expanded.items = items.items;
    if (items.pricesIncludeTax !== undefined) expanded.pricesIncludeTax = items.pricesIncludeTax;
  }
  if (errors.length)
    throw new ValidationError(errors.map((e) => `${e.path} ${e.message}`).join('; '), errors);
  return expanded as ExpandedBody<B>;
}

async function customerOrNull(em: EntityManager, scope: Scope, id: string): Promise<CustomerRow | null> {
  try {
    return await findCustomer(em, scope, id);
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/**
 * The exchange rate that turns a saved product's MXN price into the document's currency: its `tipoCambio` when the
 * document is in another currency (a credit note's currency may come from its invoice, so any rate other than 1
 * counts unless the document says MXN). None when the rate is absent or not a number: validation names it.
 */
function savedPriceRate(body: ReferencingBody): number | undefined {
  if (body.moneda === 'MXN') return undefined;
  const rate = typeof body.tipoCambio === 'string' ? Number(body.tipoCambio) : body.tipoCambio;
  return typeof rate === 'number' && Number.isFinite(rate) && rate > 0 && rate !== 1 ? rate : undefined;
}

/**
 * Items from products. A product's price is tax-included or not: when the document leaves `pricesIncludeTax` out it
 * takes its products' (which must then agree); when it says otherwise than a product, that item must send its own
 * `unitPrice`. A price is never converted between tax-included and not: dividing by 1 + the rates would round, and
 * the total would drift by a centavo from the price the merchant saved. Saved prices are in MXN: on a document in
 * another currency they are divided by its `tipoCambio` (6 decimals, ValorUnitario's), so a $400 MXN product on a
 * USD invoice at 17.25 is 23.188406 USD, never 400 USD.
 */
async function expandItems(
  em: EntityManager,
  scope: Scope,
  items: DocumentItemRequest[],
  body: ReferencingBody,
  errors: FieldError[],
): Promise<{ items: InvoiceItem[]; pricesIncludeTax?: boolean }> {
  const pricesIncludeTax = body.pricesIncludeTax;
  const rate = savedPriceRate(body);
  const ids = [...new Set(items.filter(isProductRef).map((item) => item.productId))];
  const products = await findRecords<ProductRow>(em, scope, { table: 'products', noun: 'product' }, ids);
  // The products whose saved price the document uses as is, by item index.
  const priced = new Map<number, ProductRow>();
  const expanded = items.map((item, i): InvoiceItem => {
    if (!isProductRef(item)) return item;
    const product = products.get(item.productId);
    if (!product) {
      errors.push({
        path: `/items/${i}/productId`,
        message: `no product "${item.productId}" in this account and mode`,
      });
      return item as unknown as InvoiceItem;
    }
    if (item.unitPrice === undefined) priced.set(i, product);
    return itemOf(product, item, rate);
  });
  const saved = new Set([...priced.values()].map((p) => p.prices_include_tax));
  if (pricesIncludeTax === undefined) {
    if (saved.size > 1)
      errors.push({
        path: '/pricesIncludeTax',
        message:
          'is required here: the products of these items differ in whether their price includes taxes; send pricesIncludeTax, and unitPrice for the items whose product says otherwise',
      });
    return { items: expanded, ...(saved.size === 1 ? { pricesIncludeTax: [...saved][0] } : {}) };
  }
  for (const [i, product] of priced) {
    if (product.prices_include_tax !== pricesIncludeTax)
      errors.push({
        path: `/items/${i}/productId`,
        message: `product ${product.id}'s price ${product.prices_include_tax ? 'includes' : 'excludes'} taxes but this document's pricesIncludeTax is ${pricesIncludeTax}; send unitPrice for this item, or pricesIncludeTax ${product.prices_include_tax}`,
      });
  }
  return { items: expanded };
}

function itemOf(product: ProductRow, ref: ProductItemRef, rate: number | undefined): InvoiceItem {
  const saved = Number(product.price);
  return {
    productCode: product.product_code,
    unitCode: product.unit_code,
    description: ref.description ?? product.description,
    quantity: ref.quantity,
    unitPrice: ref.unitPrice ?? (rate === undefined ? saved : Number((saved / rate).toFixed(6))),
    ...(product.unit_name ? { unit: product.unit_name } : {}),
    ...(product.sku ? { noIdentificacion: product.sku } : {}),
    taxable: product.taxable,
    ivaRate: Number(product.iva_rate),
    ...(product.ieps_rate !== null ? { iepsRate: Number(product.ieps_rate) } : {}),
  };
}
