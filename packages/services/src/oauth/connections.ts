import type { EntityManager } from '@cfdi/db';
import { NotFoundError } from '../errors';
import { scopeAllowsWrite } from './scopes';

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
  const rows: {
    id: string;
    client_id: string;
    client_name: string | null;
    livemode: boolean;
    merchant_ids: string[] | null;
    scope: string | null;
    created_at: Date;
    last_used_at: Date | null;
  }[] = await em.execute(
    `select g.id, g.client_id, c.client_name, g.livemode, g.merchant_ids, g.scope, g.created_at,
            (select max(t.created_at) from oauth_tokens t where t.grant_id = g.id) as last_used_at
       from oauth_grants g join oauth_clients c on c.id = g.client_id
      where g.console_user_id = ? and g.revoked_at is null
      order by g.created_at desc, g.id desc`,
    [consoleUserId],
  );
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
  const rows: { id: string; client_id: string; livemode: boolean }[] = await em.execute(
    `update oauth_grants set revoked_at = now()
      where id = ? and console_user_id = ? and revoked_at is null
      returning id, client_id, livemode`,
    [grantId, consoleUserId],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError('connected application');
  return { grantId: row.id, clientId: row.client_id, livemode: row.livemode };
}
