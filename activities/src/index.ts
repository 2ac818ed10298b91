import {
  auditLedger,
  chooseLedgerAuditMode,
  recordLedgerAudit,
  type LedgerAuditReport,
} from '@cfdi/services';
import type { ActivityDeps } from './deps';
import { stampingActivities } from './stamping';
import { cancellationActivities } from './cancellation';
import { resumeStalledActivities } from './resume-stalled';
import { webhookActivities } from './webhooks';
import { emailActivities } from './emails';
import { globalInvoiceActivities } from './global-invoices';
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
    ...globalInvoiceActivities(deps),
    ...exportActivities(deps),
    /**
     * Invariant check; repeatable (each run appends its own verdict to ledger_audits and moves the checkpoints of
     * the balances it found clean, which a repeated run would move to the same place or further).
     */
    async auditLedger(): Promise<LedgerAuditReport> {
      const mode = await chooseLedgerAuditMode(deps.orm.em.fork());
      const audit = await auditLedger(deps.orm.em.fork(), { mode });
      await recordLedgerAudit(deps.orm.em.fork(), audit);
      return audit.report;
    },
  };
}
