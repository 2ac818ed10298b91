import { newId, type EntityManager } from '@cfdi/db';
import type { LedgerScope } from '../ledger';
import { insertEvent } from '../webhooks/webhook-repository';

export type EventType =
  | 'invoice.stamped'
  | 'invoice.stamp_failed'
  | 'invoice.needs_reconciliation'
  | 'invoice.cancel_pending'
  | 'invoice.cancelled'
  | 'invoice.cancellation_rejected'
  | 'payment.stamped'
  | 'payment.stamp_failed'
  | 'payment.needs_reconciliation'
  | 'payment.cancel_pending'
  | 'payment.cancelled'
  | 'payment.cancellation_rejected'
  | 'nomina.stamped'
  | 'nomina.stamp_failed'
  | 'nomina.needs_reconciliation'
  | 'nomina.cancel_pending'
  | 'nomina.cancelled'
  | 'nomina.cancellation_rejected'
  | 'retention.stamped'
  | 'retention.stamp_failed'
  | 'retention.needs_reconciliation'
  | 'retention.cancel_pending'
  | 'retention.cancelled'
  | 'retention.cancellation_rejected'
  | 'traslado.stamped'
  | 'traslado.stamp_failed'
  | 'traslado.needs_reconciliation'
  | 'traslado.cancel_pending'
  | 'traslado.cancelled'
  | 'traslado.cancellation_rejected';

/** Events about the platform's own resources rather than documents (an e-mail delivery's object is the delivery). */
export type PlatformEventType =
  | 'endpoint.disabled'
  | 'email.sent'
  | 'email.failed'
  // A receipt covered by an invoice (its customer's, or the period's global one), and the global invoice stamped.
  | 'receipt.invoiced'
  | 'receipt.in_global'
  | 'global_invoice.stamped';

/**
 * Writes an event to the outbox in the caller's transaction, so an event exists exactly when its state change
 * committed; webhook delivery reads the outbox later.
 */
export async function emitEvent(
  em: EntityManager,
  scope: LedgerScope,
  type: EventType | PlatformEventType,
  object: unknown,
): Promise<string> {
  const id = newId('evt');
  await insertEvent(em, scope, { id, type, data: JSON.stringify({ object }) });
  return id;
}
