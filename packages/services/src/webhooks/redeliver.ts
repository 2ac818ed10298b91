import type { EntityManager } from '@cfdi/db';
import { NotFoundError, ValidationError } from '../errors';
import type { Scope } from '../scope';
import { subscribedEndpoints } from './dispatch';
import { retrieveEvent } from './events';
import { selectEndpointDisabled } from './webhook-repository';

/**
 * Which endpoints a redelivery of the event goes to: the one named (in scope, enabled, 404/400 otherwise), or every
 * enabled endpoint subscribed to its type now. Refused (400) when that leaves none.
 */
export async function planRedelivery(
  em: EntityManager,
  scope: Scope,
  eventId: string,
  endpointId?: string,
): Promise<string[]> {
  const event = await retrieveEvent(em, scope, eventId);
  if (endpointId) {
    const disabled = await selectEndpointDisabled(em, scope, endpointId);
    if (disabled === undefined) throw new NotFoundError('webhook endpoint', endpointId);
    if (disabled)
      throw ValidationError.field(
        '/webhookEndpointId',
        'the endpoint is disabled; enable it (PATCH disabled: false) first',
      );
    return [endpointId];
  }
  const endpoints = await subscribedEndpoints(em, {
    accountId: event.account_id,
    livemode: event.livemode,
    type: event.type,
  });
  if (!endpoints.length)
    throw ValidationError.field(
      '/webhookEndpointId',
      `no enabled endpoint is subscribed to ${event.type}; name one to send it there`,
    );
  return endpoints;
}
