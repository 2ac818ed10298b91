import type { EntityManager } from '@cfdi/db';
import { countStalledDocuments } from './documents/stalled-documents';

export interface PlatformGauges {
  documentsByStatus: { type: string; status: string; count: number }[];
  awaitingReconciliation: number;
  /** Accepted work whose workflow has not started within a minute (the resume-stalled sweep's backlog). */
  withoutWorkflow: { stamping: number; cancellation: number };
  lastAudit: { violations: number; balancesChecked: number; ageSeconds: number } | null;
  /** The outbox: events not yet handed to delivery, the oldest one's age, and endpoints being retried. */
  webhooks: { backlog: number; oldestPendingSeconds: number; failingEndpoints: number };
  /** Stamped documents whose files failed to render for good. */
  filesFailed: number;
}

/** Numbers operators alert on, across all tenants (no tenant data): for the /metrics endpoint. */
export async function platformGauges(em: EntityManager): Promise<PlatformGauges> {
  const byStatus: { type: string; status: string; count: number }[] = await em.execute(
    'select type, status, count(*)::int as count from documents group by type, status order by type, status',
  );
  const awaiting: { n: number }[] = await em.execute(
    `select count(*)::int as n from documents where needs_reconciliation and status = 'stamping'`,
  );
  const audits: { violations: number; balances_checked: number; age: number }[] = await em.execute(
    'select violations, balances_checked, extract(epoch from now() - created_at)::int as age from ledger_audits order by id desc limit 1',
  );
  const last = audits[0];
  const [outbox]: { backlog: number; oldest: number }[] = await em.execute(
    `select count(*)::int as backlog, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
       from events where delivered_at is null`,
  );
  const [endpoints]: { failing: number }[] = await em.execute(
    `select count(*)::int as failing from webhook_endpoints
      where failing_since is not null and not disabled and deleted_at is null`,
  );
  const [files]: { failed: number }[] = await em.execute(
    `select count(*)::int as failed from documents where files_status = 'failed'`,
  );
  return {
    documentsByStatus: byStatus,
    awaitingReconciliation: awaiting[0]?.n ?? 0,
    withoutWorkflow: {
      stamping: await countStalledDocuments(em, 'stamping'),
      cancellation: await countStalledDocuments(em, 'cancellation'),
    },
    lastAudit: last
      ? { violations: last.violations, balancesChecked: last.balances_checked, ageSeconds: last.age }
      : null,
    webhooks: {
      backlog: outbox?.backlog ?? 0,
      oldestPendingSeconds: outbox?.oldest ?? 0,
      failingEndpoints: endpoints?.failing ?? 0,
    },
    filesFailed: files?.failed ?? 0,
  };
}
