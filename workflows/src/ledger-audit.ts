import { log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';

// Read-only and cheap: retry freely on infrastructure errors.
const { auditLedger } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '5 seconds' },
});

/** Periodic ledger audit (run by a Temporal Schedule). Idempotent: it only reads and reports. */
export async function ledgerAuditWorkflow(): Promise<{ balancesChecked: number; violations: number }> {
  const report = await auditLedger();
  if (report.violations.length) log.error('ledger invariants violated', { violations: report.violations });
  return { balancesChecked: report.balancesChecked, violations: report.violations.length };
}
