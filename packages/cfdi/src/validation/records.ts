import type { CatalogLookup } from './catalog-lookup';
import { checkFormaPago } from './invoice-request';
import { checkItem, checkItems } from './items';
import { Issues, type ValidationIssue } from './issues';
import { checkReceiver } from './receiver';

/** A saved customer's fiscal data: the receiver a document made from it will carry. */
export interface CustomerRecordRequest {
  rfc: string;
  legalName: string;
  regimenFiscal: string;
  zip: string;
  usoCfdi?: string | null;
}

/** A saved product: the item a document made from it will carry (quantity aside). */
export interface ProductRecordRequest {
  description: string;
  productCode: string;
  unitCode: string;
  unitName?: string | null;
  price: number;
  taxable?: boolean;
  ivaRate?: number | null;
  iepsRate?: number | null;
  sku?: string | null;
}

/** Re-points an issue found on the receiver or item a record becomes at the record's own field. */
function renamed(list: ValidationIssue[], paths: Record<string, string>): ValidationIssue[] {
  return list.map((issue) => ({ ...issue, path: paths[issue.path] ?? issue.path }));
}

/**
 * A customer is checked by the receiver rules themselves (one copy of each rule); the rules that compare the receiver
 * with the issuer wait for a document, which checks its receiver again.
 */
export function checkCustomerRecord(
  customer: CustomerRecordRequest,
  catalogs: CatalogLookup,
): ValidationIssue[] {
  const issues = new Issues();
  const receiver = {
    rfc: customer.rfc,
    name: customer.legalName,
    zip: customer.zip,
    regimenFiscal: customer.regimenFiscal,
  };
  checkReceiver(issues, receiver, customer.usoCfdi ?? undefined, undefined, catalogs, false);
  return renamed(issues.list, {
    '/receiver': '/',
    '/receiver/rfc': '/rfc',
    '/receiver/name': '/legalName',
    '/receiver/zip': '/zip',
    '/receiver/regimenFiscal': '/regimenFiscal',
  });
}

/** A product is checked by the item rules (catalog keys, text, price, tax rates) as a one-unit item. */
export function checkProductRecord(
  product: ProductRecordRequest,
  catalogs: CatalogLookup,
): ValidationIssue[] {
  const issues = new Issues();
  checkItem(
    issues,
    '',
    {
      productCode: product.productCode,
      unitCode: product.unitCode,
      description: product.description,
      quantity: 1,
      unitPrice: product.price,
      unit: product.unitName ?? undefined,
      noIdentificacion: product.sku ?? undefined,
      taxable: product.taxable,
      ivaRate: product.ivaRate ?? undefined,
      iepsRate: product.iepsRate ?? undefined,
    },
    catalogs,
  );
  return renamed(issues.list, { '/unitPrice': '/price', '/unit': '/unitName', '/noIdentificacion': '/sku' });
}

/** A receipt: what a shop sold and how it was paid, which a later invoice (the customer's or the global one) carries. */
export interface ReceiptRecordRequest {
  items: unknown;
  formaPago: unknown;
}

/**
 * A receipt is checked by the item rules and the payment form of the invoice it will become, so a ticket handed out
 * today can always be invoiced later. It records a sale already paid: 99 (por definir) is refused.
 */
export function checkReceiptRecord(
  receipt: ReceiptRecordRequest,
  catalogs: CatalogLookup,
): ValidationIssue[] {
  const issues = new Issues();
  checkItems(issues, receipt.items, catalogs);
  if (checkFormaPago(issues, receipt.formaPago, catalogs) && receipt.formaPago === '99')
    issues.add('/formaPago', 'must say how the sale was paid: 99 (por definir) is for sales not yet paid');
  return issues.list;
}
