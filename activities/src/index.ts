import { auditLedger, recordLedgerAudit, type LedgerAuditReport } from '@cfdi/services';
import type { ActivityDeps } from './deps';
import { stampingActivities } from './stamping';
import { cancellationActivities } from './cancellation';
import { resumeStalledActivities } from './resume-stalled';
import { webhookActivities } from './webhooks';

export type { ActivityDeps } from './deps';
export type { ResumeStalledReport } from './resume-stalled';

/** Every activity of the platform, bound to the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...stampingActivities(deps),
    ...cancellationActivities(deps),
    ...resumeStalledActivities(deps),
    ...webhookActivities(deps),
    /** Invariant check; repeatable (each run only appends its own verdict to ledger_audits). */
    async auditLedger(): Promise<LedgerAuditReport> {
      const report = await auditLedger(deps.orm.em.fork());
      await recordLedgerAudit(deps.orm.em.fork(), report);
      return report;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
