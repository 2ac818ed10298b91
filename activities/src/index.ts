import { auditLedger, recordLedgerAudit, type LedgerAuditReport } from '@cfdi/services';
import type { ActivityDeps } from './deps';
import { stampingActivities } from './stamping';
import { cancellationActivities } from './cancellation';
import { resumeStalledActivities } from './resume-stalled';
import { webhookActivities } from './webhooks';
import { emailActivities } from './emails';
import { exportActivities } from './exports';

import type { Activities } from '@cfdi/temporal-contract';

export type { ActivityDeps, ActivityObserver } from './deps';

/** Every activity of the platform, bound to the worker's dependencies. */
export function createActivities(deps: ActivityDeps): Activities {
  return {
    ...stampingActivities(deps),
    ...cancellationActivities(deps),
    ...resumeStalledActivities(deps),
    ...webhookActivities(deps),
    ...emailActivities(deps),
    ...exportActivities(deps),
    /** Invariant check; repeatable (each run only appends its own verdict to ledger_audits). */
    async auditLedger(): Promise<LedgerAuditReport> {
      const report = await auditLedger(deps.orm.em.fork());
      await recordLedgerAudit(deps.orm.em.fork(), report);
      return report;
    },
  };
}
