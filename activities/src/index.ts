import { auditLedger, type LedgerAuditReport } from '@cfdi/services';
import type { ActivityDeps } from './deps';
import { stampingActivities } from './stamping';
import { cancellationActivities } from './cancellation';

export type { ActivityDeps } from './deps';

/** Every activity of the platform, bound to the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...stampingActivities(deps),
    ...cancellationActivities(deps),
    /** Read-only invariant check; repeatable. */
    async auditLedger(): Promise<LedgerAuditReport> {
      return auditLedger(deps.orm.em.fork());
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
