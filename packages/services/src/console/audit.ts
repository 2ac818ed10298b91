import type { EntityManager } from '@cfdi/db';
import { isoTimestamp } from '../time';
import type { CountedPage, ListWindow } from '../pagination';
import { consoleAuditCountedPage, insertConsoleAudit } from '../console-users/console-user-repository';
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
  await insertConsoleAudit(em, {
    console_user_id: input.actor.id,
    actor_email: input.actor.email,
    action: input.action,
    target: input.target ?? null,
    account_id: input.accountId ?? null,
    livemode: input.livemode ?? null,
    detail: input.detail ?? null,
    ip: input.ip,
  });
}

/** Newest first, one numbered page; `accountId` narrows to one account's actions (platform-wide ones have none). */
export async function listConsoleAudit(
  em: EntityManager,
  filter: { accountId?: string } = {},
  window: ListWindow = { limit: 200, offset: 0 },
): Promise<CountedPage<ConsoleAuditView>> {
  const page = await consoleAuditCountedPage(em, filter.accountId, window);
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
