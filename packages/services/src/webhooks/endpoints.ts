import { randomBytes } from 'node:crypto';
import { newId, type EntityManager } from '@cfdi/db';
import { requireMasterKey } from '../crypto/require-master-key';
import { openSecret, readableKeys, sealSecret, type MasterKeyring } from '../crypto/secret-box';
import { ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors';
import type { Scope } from '../scope';
import { isoTimestamp, isoTimestampOrNull } from '../time';
import { endpointUrlProblem } from './endpoint-url';
import { unknownEventTypes } from './event-types';
import { listAnswer, type PageRequest } from '../pagination';
import { lockAccount } from '../account-repository';
import {
  countLiveEndpoints,
  endpointKeysetPage,
  insertEndpoint,
  rotateEndpointSecret,
  selectEndpointsById,
  selectLiveEndpoint,
  softDeleteEndpoint,
  updateEndpoint,
  type WebhookEndpointRow,
} from './webhook-repository';

export type { WebhookEndpointRow } from './webhook-repository';

/** Endpoints per account and mode. */
export const MAX_WEBHOOK_ENDPOINTS = 16;
/** How long a replaced secret keeps signing beside the new one. */
const SECRET_ROTATION_OVERLAP_HOURS = 24;

export interface WebhookEndpointsContext {
  em: EntityManager;
  masterKey: MasterKeyring | null;
}

export function toWebhookEndpointView(row: WebhookEndpointRow) {
  const previousExpires =
    row.previous_secret_expires_at === null ? null : isoTimestamp(row.previous_secret_expires_at);
  return {
    id: row.id,
    object: 'webhook_endpoint' as const,
    livemode: row.livemode,
    url: row.url,
    description: row.description,
    enabledEvents: row.enabled_events,
    disabled: row.disabled,
    disabledReason: row.disabled_reason,
    failingSince: isoTimestampOrNull(row.failing_since),
    previousSecretExpiresAt:
      previousExpires && new Date(previousExpires) > new Date() ? previousExpires : null,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

export type WebhookEndpointView = ReturnType<typeof toWebhookEndpointView>;

/** Endpoints receive the events of every merchant of the account, so a key restricted to some merchants cannot manage them. */
function assertUnrestricted(scope: Scope): void {
  if (scope.merchantIds) {
    throw new ForbiddenError(
      'This API key is restricted to some merchants; webhook endpoints receive the events of every merchant, so they need an unrestricted key.',
    );
  }
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const seal = (ctx: WebhookEndpointsContext, endpointId: string, secret: string) =>
  sealSecret(
    requireMasterKey(ctx.masterKey, 'webhook signing secrets'),
    Buffer.from(secret, 'utf8'),
    endpointId,
  );

async function rejectProblems(
  problems: Promise<(FieldError | null)[]> | (FieldError | null)[],
): Promise<void> {
  const errors = (await problems).filter((p): p is FieldError => p !== null);
  if (errors.length)
    throw new ValidationError(errors.map((e) => `${e.path} ${e.message}`).join('; '), errors);
}

async function findEndpoint(em: EntityManager, scope: Scope, id: string): Promise<WebhookEndpointRow> {
  assertUnrestricted(scope);
  const row = await selectLiveEndpoint(em, scope, id);
  if (!row) throw new NotFoundError('webhook endpoint', id);
  return row;
}

export interface WebhookEndpointCreate {
  url: string;
  enabledEvents: string[];
  description?: string;
}

/** The secret is in this answer only; it is stored encrypted and never shown again. */
export async function createWebhookEndpoint(
  ctx: WebhookEndpointsContext,
  scope: Scope,
  input: WebhookEndpointCreate,
) {
  assertUnrestricted(scope);
  await rejectProblems([
    ...unknownEventTypes(input.enabledEvents),
    await endpointUrlProblem(input.url, scope.livemode),
  ]);
  const id = newId('we');
  const secret = newSecret();
  const sealed = seal(ctx, id, secret);
  const row = await ctx.em.transactional(async (tx) => {
    // The account row lock serialises creations, so two concurrent ones cannot both pass the count.
    await lockAccount(tx, scope.accountId);
    if ((await countLiveEndpoints(tx, scope)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw ValidationError.field(
        '/url',
        `at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per account and mode; delete one first`,
      );
    }
    return insertEndpoint(tx, scope, {
      id,
      url: input.url,
      description: input.description ?? null,
      enabled_events: [...new Set(input.enabledEvents)],
      secret: sealed,
    });
  });
  return { ...toWebhookEndpointView(row), secret };
}

export async function retrieveWebhookEndpoint(
  ctx: WebhookEndpointsContext,
  scope: Scope,
  id: string,
): Promise<WebhookEndpointView> {
  return toWebhookEndpointView(await findEndpoint(ctx.em, scope, id));
}

export async function listWebhookEndpoints(ctx: WebhookEndpointsContext, scope: Scope, page: PageRequest) {
  assertUnrestricted(scope);
  const rows = await endpointKeysetPage(ctx.em, scope, page);
  return listAnswer(rows, toWebhookEndpointView);
}

export interface WebhookEndpointUpdate {
  url?: string;
  enabledEvents?: string[];
  description?: string | null;
  /** true stops deliveries; false enables the endpoint again (also after a 410 or 3 days of failures). */
  disabled?: boolean;
}

export async function updateWebhookEndpoint(
  ctx: WebhookEndpointsContext,
  scope: Scope,
  id: string,
  input: WebhookEndpointUpdate,
): Promise<WebhookEndpointView> {
  await findEndpoint(ctx.em, scope, id);
  await rejectProblems([
    ...(input.enabledEvents ? unknownEventTypes(input.enabledEvents) : []),
    input.url === undefined ? null : await endpointUrlProblem(input.url, scope.livemode),
  ]);
  const row = await updateEndpoint(ctx.em, scope, id, {
    ...input,
    ...(input.enabledEvents !== undefined ? { enabledEvents: [...new Set(input.enabledEvents)] } : {}),
  });
  if (!row) throw new NotFoundError('webhook endpoint', id);
  return toWebhookEndpointView(row);
}

/** Soft delete: deliveries in flight stop at their next attempt; past attempts stay listed on their events. */
export async function deleteWebhookEndpoint(ctx: WebhookEndpointsContext, scope: Scope, id: string) {
  await findEndpoint(ctx.em, scope, id);
  if (!(await softDeleteEndpoint(ctx.em, scope, id))) throw new NotFoundError('webhook endpoint', id);
  return { id, object: 'webhook_endpoint' as const, deleted: true as const };
}

/**
 * A new secret, shown in this answer only. The one it replaces keeps signing beside it for 24 hours (both `v1`
 * signatures are sent), so receivers can switch without losing deliveries.
 */
export async function rotateWebhookSecret(ctx: WebhookEndpointsContext, scope: Scope, id: string) {
  await findEndpoint(ctx.em, scope, id);
  const secret = newSecret();
  const row = await rotateEndpointSecret(
    ctx.em,
    scope,
    id,
    seal(ctx, id, secret),
    SECRET_ROTATION_OVERLAP_HOURS,
  );
  if (!row) throw new NotFoundError('webhook endpoint', id);
  return { ...toWebhookEndpointView(row), secret };
}

/** What a delivery needs: the target and every secret currently signing (the newest first). */
export interface DeliveryTarget {
  id: string;
  accountId: string;
  livemode: boolean;
  url: string;
  enabledEvents: string[];
  /** False once deleted or disabled: deliveries stop. */
  active: boolean;
  secrets: string[];
}

export async function loadDeliveryTarget(
  em: EntityManager,
  masterKey: MasterKeyring | null,
  endpointId: string,
  now: Date,
): Promise<DeliveryTarget | null> {
  return (await loadDeliveryTargets(em, masterKey, [endpointId], now)).get(endpointId) ?? null;
}

/** The targets of these endpoints (one query, each secret opened once), by id; missing ids are absent. */
export async function loadDeliveryTargets(
  em: EntityManager,
  masterKey: MasterKeyring | null,
  endpointIds: string[],
  now: Date,
): Promise<Map<string, DeliveryTarget>> {
  const targets = new Map<string, DeliveryTarget>();
  if (!endpointIds.length) return targets;
  const rows = await selectEndpointsById(em, endpointIds);
  if (!rows.length) return targets;
  const keys = readableKeys(requireMasterKey(masterKey, 'webhook signing secrets'));
  for (const row of rows) {
    const open = (envelope: string) => openSecret(keys, envelope, row.id).toString('utf8');
    const previousValid =
      row.previous_secret &&
      row.previous_secret_expires_at &&
      new Date(isoTimestamp(row.previous_secret_expires_at)) > now;
    targets.set(row.id, {
      id: row.id,
      accountId: row.account_id,
      livemode: row.livemode,
      url: row.url,
      enabledEvents: row.enabled_events,
      active: !row.disabled && row.deleted_at === null,
      secrets: [open(row.secret), ...(previousValid ? [open(row.previous_secret!)] : [])],
    });
  }
  return targets;
}
