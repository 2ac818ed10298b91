import type { CatalogLookup } from './catalog-lookup';
import { checkCurrency } from './currency';
import {
  checkComputable,
  checkFormaPago,
  type CheckedRequest,
  type ValidationContext,
} from './invoice-request';
import { checkText, isString, Issues, type ValidationIssue } from './issues';
import { checkBorderRate, checkItems, type ItemRequest } from './items';
import { checkReceiver } from './receiver';
import { UUID_PATTERN } from './related-documents';

/** POST /v1/credit_notes body (api-spec.md CreditNoteCreate); the receiver is resolved by the caller when relatedInvoiceId is used. */
export interface CreditNoteRequest {
  relatedInvoiceId?: unknown;
  relatedUuid?: unknown;
  tipoRelacion?: unknown;
  usoCfdi?: unknown;
  formaPago?: unknown;
  folio?: unknown;
  receiver?: unknown;
  items?: unknown;
  pricesIncludeTax?: unknown;
  /** c_Moneda, default MXN; any other needs tipoCambio (as invoices). */
  moneda?: unknown;
  tipoCambio?: unknown;
}

export function validateCreditNoteRequest(
  req: CreditNoteRequest,
  catalogs: CatalogLookup,
  context: ValidationContext,
): ValidationIssue[] {
  return checkCreditNoteRequest(req, catalogs, context).issues;
}

/** validateCreditNoteRequest, with the computed concepts and totals of a valid request. */
export function checkCreditNoteRequest(
  req: CreditNoteRequest,
  catalogs: CatalogLookup,
  context: ValidationContext,
): CheckedRequest {
  const issues = new Issues();
  if (req.relatedInvoiceId === undefined && req.relatedUuid === undefined) {
    issues.add(
      '/relatedUuid',
      'send relatedInvoiceId (an invoice of this service) or relatedUuid (the UUID of the income CFDI being credited)',
    );
  }
  if (req.relatedUuid !== undefined && (!isString(req.relatedUuid) || !UUID_PATTERN.test(req.relatedUuid))) {
    issues.add('/relatedUuid', 'must be a CFDI UUID: 8-4-4-4-12 hexadecimal characters');
  }
  if (req.relatedUuid !== undefined && req.relatedInvoiceId === undefined && req.receiver === undefined) {
    issues.add(
      '/receiver',
      'is required with relatedUuid (the receiver cannot be copied from an invoice stamped elsewhere)',
    );
  }
  if (req.tipoRelacion !== undefined && req.tipoRelacion !== '01' && req.tipoRelacion !== '03') {
    issues.add('/tipoRelacion', 'must be 01 (nota de crédito) or 03 (devolución de mercancía)');
  }
  if (checkFormaPago(issues, req.formaPago, catalogs) && req.formaPago === '99') {
    // An egreso is always PUE, and PUE never goes with 99 (cfdi40.md §1.7, §6). Its FormaPago is how the related
    // income was paid or extinguished: for a PPD invoice (whose own FormaPago is 99) the form of its payments or of
    // the refund, or 15 (condonación) while it is unpaid.
    issues.add(
      '/formaPago',
      'must not be 99 on a credit note (always PUE): use the form the related invoice was paid with or the refund is made with, or 15 (condonación) when it is not paid yet',
    );
  }
  checkText(issues, '/folio', req.folio, 40, false);
  if (req.receiver !== undefined)
    checkReceiver(issues, req.receiver, req.usoCfdi ?? 'G02', context.issuer, catalogs);
  const currency = checkCurrency(issues, req.moneda, req.tipoCambio, catalogs, context.publishedRate);
  const itemsOk = checkItems(issues, req.items, catalogs);
  checkBorderRate(issues, req.items, undefined, context.issuer);
  const computed =
    itemsOk && issues.list.length === 0
      ? checkComputable(
          issues,
          req.items as ItemRequest[],
          undefined,
          undefined,
          req.pricesIncludeTax,
          currency?.decimales,
        )
      : undefined;
  return computed && currency ? { issues: [], computed, currency } : { issues: issues.list };
}
