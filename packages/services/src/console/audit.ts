import { newId, type EntityManager } from '@cfdi/db';
import { isoTimestamp } from '../time';
import { countedPage, type CountedPage, type ListWindow } from '../pagination';
import type { ConsoleUserView } from '../console-users';

export interface ConsoleAuditInput {
  actor: Pick<ConsoleUserView, 'id' | 'email'> | { id: null; email: string };
  action: string;
  target?: string | null;
  accountId?: string | null;
  livemode?: boolean | null;
  detail?: Record<string, unknown> | null;
  ip: string | null;
}

export interface ConsoleAuditView {
  id: string;
  actorEmail: string;
  action: string;
  target: string | null;
  accountId: string | null;
  livemode: boolean | null;
  detail: Record<string, unknown> | null;
  ip: string | null;
  createdAt: string;
}

/** Written after (never instead of) the action it records; secrets never go into `detail`. */
export async function recordConsoleAudit(em: EntityManager, input: ConsoleAuditInput): Promise<void> {
  await em.execute(
    `insert into console_audit (id, console_user_id, actor_email, action, target, account_id, livemode, detail, ip)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [
      newId('aud'),
      input.actor.id,
      input.actor.email,
      input.action,
      input.target ?? null,
      input.accountId ?? null,
      input.livemode ?? null,
      input.detail ? JSON.stringify(input.detail) : null,
      input.ip,
    ],
  );
}

/** Newest first, one numbered page; `accountId` narrows to one account's actions (platform-wide ones have none). */
export async function listConsoleAudit(
  em: EntityManager,
  filter: { accountId?: string } = {},
  window: ListWindow = { limit: 200, offset: 0 },
): Promise<CountedPage<ConsoleAuditView>> {
  const page = await countedPage<{
    id: string;
    actor_email: string;
    action: string;
    target: string | null;
    account_id: string | null;
    livemode: boolean | null;
    detail: Record<string, unknown> | null;
    ip: string | null;
    created_at: Date;
  }>(
    em,
    `select * from console_audit ${filter.accountId ? 'where account_id = ?' : ''} order by id desc`,
    filter.accountId ? [filter.accountId] : [],
    window,
  );
  return {
    ...page,
    rows: page.rows.map((r) => ({
      id: r.id,
      actorEmail: r.actor_email,
      action: r.action,
      target: r.target,
      accountId: r.account_id,
      livemode: r.livemode,
      detail: r.detail,
      ip: r.ip,
      createdAt: isoTimestamp(r.created_at),
    })),
  };
}
