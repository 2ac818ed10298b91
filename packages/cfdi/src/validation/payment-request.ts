import type { CatalogLookup } from './catalog-lookup';
import { checkFormaPago } from './invoice-request';
import { checkPositive, Issues, type ValidationIssue } from './issues';

/** POST /v1/invoices/{id}/payments body (api-spec.md PaymentCreate). Balances are the server's job. */
export interface PaymentRequest {
  monto?: unknown;
  formaPago?: unknown;
  fechaPago?: unknown;
  numParcialidad?: unknown;
}

const FECHA =
  /^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

export function validatePaymentRequest(req: PaymentRequest, catalogs: CatalogLookup): ValidationIssue[] {
  const issues = new Issues();
  checkPositive(issues, '/monto', req.monto, 2);
  if (checkFormaPago(issues, req.formaPago, catalogs) && req.formaPago === '99') {
    issues.add(
      '/formaPago',
      '99 (por definir) is not allowed in a payment: send the form the money arrived by (CRP20212)',
    );
  }
  if (req.fechaPago !== undefined && (typeof req.fechaPago !== 'string' || !FECHA.test(req.fechaPago))) {
    issues.add(
      '/fechaPago',
      'must be a local date-time YYYY-MM-DDTHH:MM:SS without zone, e.g. 2026-11-19T13:05:00',
    );
  }
  if (
    req.numParcialidad !== undefined &&
    (typeof req.numParcialidad !== 'number' ||
      !Number.isInteger(req.numParcialidad) ||
      req.numParcialidad < 1 ||
      req.numParcialidad > 999)
  ) {
    issues.add('/numParcialidad', 'must be an integer from 1 to 999');
  }
  return issues.list;
}
