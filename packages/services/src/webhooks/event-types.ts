import type { FieldError } from '../errors';

const DOCUMENT_EVENTS = [
  'stamped',
  'stamp_failed',
  'needs_reconciliation',
  'cancel_pending',
  'cancelled',
  'cancellation_rejected',
] as const;

/** Every event an endpoint can subscribe to (design.md, Events), plus the platform's own `endpoint.disabled` and e-mails. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...(['invoice', 'payment', 'nomina', 'retention', 'traslado'] as const).flatMap((resource) =>
    DOCUMENT_EVENTS.map((action) => `${resource}.${action}`),
  ),
  'endpoint.disabled',
  'email.sent',
  'email.failed',
  'receipt.invoiced',
  'receipt.in_global',
  'global_invoice.stamped',
];

/** Subscribes to every type, present and future. */
export const ALL_EVENTS = '*';

/** One error per unknown type, naming it, at its index in `enabledEvents`. */
export function unknownEventTypes(enabledEvents: readonly string[], path = '/enabledEvents'): FieldError[] {
  return enabledEvents.flatMap((type, index) =>
    type === ALL_EVENTS || WEBHOOK_EVENT_TYPES.includes(type)
      ? []
      : [
          {
            path: `${path}/${index}`,
            message: `unknown event type "${type}"; use "*" or one of: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
          },
        ],
  );
}
