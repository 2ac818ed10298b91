import type { EntityManager } from '@cfdi/db';
import { listWebhookAttempts, type WebhookAttemptView } from '../webhooks/attempts';
import { listWebhookEndpoints, MAX_WEBHOOK_ENDPOINTS, type WebhookEndpointView } from '../webhooks/endpoints';
import type { Scope } from '../scope';

export interface ConsoleWebhookEndpoint {
  endpoint: WebhookEndpointView;
  /** The newest attempts, newest first. */
  attempts: WebhookAttemptView[];
}

/**
 * The scope's webhook endpoints (at most MAX_WEBHOOK_ENDPOINTS per account and mode) each with its latest attempts,
 * read-only. Like the API, a scope limited to some merchants may not see them (ForbiddenError): endpoints receive
 * every merchant's events.
 */
export async function listConsoleWebhooks(
  em: EntityManager,
  scope: Scope,
  attemptsPerEndpoint = 10,
): Promise<ConsoleWebhookEndpoint[]> {
  // masterKey only decrypts secrets, which a list never shows.
  const endpoints = await listWebhookEndpoints({ em, masterKey: null }, scope, {
    limit: MAX_WEBHOOK_ENDPOINTS,
  });
  return Promise.all(
    endpoints.data.map(async (endpoint) => ({
      endpoint,
      attempts: (
        await listWebhookAttempts(em, scope, { endpointId: endpoint.id }, { limit: attemptsPerEndpoint })
      ).data,
    })),
  );
}
