import type { FastifyBaseLogger } from 'fastify';
import { createInvoiceFromReceipts, type InvoiceFromReceipts, type Scope } from '@cfdi/services';
import type { AppDeps } from '../deps';
import type { Answer } from './idempotent';
import { stampingDeps, storeAndStamp } from './stamping';

/**
 * Invoices open receipts for a customer under an Idempotency-Key: stored like any invoice (receipts marked invoiced in
 * the same transaction), then stamped by the stamp workflow, answered 201 or 202 as `POST /v1/invoices`. `single`
 * is the receipt's own URL (an unknown id is its 404); `operation` names the REST route, shared by the MCP tool.
 */
export function invoiceReceipts(
  deps: AppDeps,
  scope: Scope,
  operation: string,
  body: InvoiceFromReceipts,
  key: string,
  log: FastifyBaseLogger,
  single: boolean,
): Promise<Answer> {
  return storeAndStamp(deps, scope, { key, operation, body, log }, (claimed) =>
    createInvoiceFromReceipts(
      deps.orm.em.fork(),
      { ...stampingDeps(deps), portalUrl: deps.config.api.portalUrl },
      scope,
      body,
      { idempotencyKey: claimed, single },
    ),
  );
}
