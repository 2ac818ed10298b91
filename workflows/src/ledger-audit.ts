import { log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';

// Reads and appends a verdict: retry freely on infrastructure errors. The daily full audit reads the whole ledger
// (about a minute at two million entries); the incremental ones take well under a second.
const { auditLedger } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 5, initialInterval: '5 seconds' },
});

/** Periodic ledger audit (run by a Temporal Schedule). Repeatable: it reads, reports and moves checkpoints forward. */
export async function ledgerAuditWorkflow(): Promise<{ balancesChecked: number; violations: number }> {
  const report = await auditLedger();
  if (report.violations.length) log.error('ledger invariants violated', { violations: report.violations });
  return { balancesChecked: report.balancesChecked, violations: report.violations.length };
}
