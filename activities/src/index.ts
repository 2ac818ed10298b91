import type { Orm } from '@cfdi/db';
import type { Config } from '@cfdi/config';
import { auditLedger, type LedgerAuditReport } from '@cfdi/services';

/** What activities may use; built once by the worker. No activity constructs its own client. */
export interface ActivityDeps {
  config: Readonly<Config>;
  orm: Orm;
}

export function createActivities(deps: ActivityDeps) {
  return {
    /** Read-only invariant check; repeatable. */
    async auditLedger(): Promise<LedgerAuditReport> {
      return auditLedger(deps.orm.em.fork());
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
