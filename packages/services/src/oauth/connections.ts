import type { EntityManager } from '@cfdi/db';
import { NotFoundError } from '../errors';
import { scopeAllowsWrite } from './scopes';
import { revokeGrantOfUser, selectConnectedClients } from './oauth-repository';

/** An application a console user connected to the tool server through the OAuth consent page, still live. */
export interface ConnectedClient {
  grantId: string;
  clientId: string;
  clientName: string | null;
  livemode: boolean;
  /** null: every merchant the user may act for, also those added later. */
  merchantIds: string[] | null;
  canWrite: boolean;
  createdAt: Date;
  /** When it last got tokens (the approval, then each refresh). */
  lastUsedAt: Date;
}

/** The user's connected applications (grants not revoked), newest first. */
export async function listConnectedClients(
  em: EntityManager,
  consoleUserId: string,
): Promise<ConnectedClient[]> {
  const rows = await selectConnectedClients(em, consoleUserId);
  return rows.map((row) => ({
    grantId: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    livemode: row.livemode,
    merchantIds: row.merchant_ids,
    canWrite: scopeAllowsWrite(row.scope),
    createdAt: new Date(row.created_at),
    lastUsedAt: new Date(row.last_used_at ?? row.created_at),
  }));
}

/**
 * Disconnects one of the user's applications: its grant is revoked, so its access and refresh tokens stop working at
 * once. Another user's grant, or one already revoked, is a 404.
 */
export async function revokeConnectedClient(
  em: EntityManager,
  consoleUserId: string,
  grantId: string,
): Promise<{ grantId: string; clientId: string; livemode: boolean }> {
  const row = await revokeGrantOfUser(em, consoleUserId, grantId);
  if (!row) throw new NotFoundError('connected application');
  return { grantId: row.id, clientId: row.client_id, livemode: row.livemode };
}
