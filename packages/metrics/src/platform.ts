import { Gauge, type Registry } from 'prom-client';

/** Platform-wide numbers read from PostgreSQL on each scrape (packages/services' platformGauges gives them). */
export interface PlatformNumbers {
  documentsByStatus: { type: string; status: string; count: number }[];
  awaitingReconciliation: number;
  withoutWorkflow: { stamping: number; cancellation: number };
  lastAudit: { violations: number; ageSeconds: number } | null;
  webhooks: { backlog: number; oldestPendingSeconds: number; failingEndpoints: number };
  filesFailed: number;
}

/**
 * The gauges an operator alerts on, across all tenants (no tenant data). Every API replica reads the same database,
 * so they are the same on each: alert rules and the dashboard take `max()` over replicas.
 */
export function createPlatformGauges(registry: Registry): (numbers: PlatformNumbers) => void {
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name, help, labelNames, registers: [registry] });
  const documents = gauge('cfdi_documents', 'Documents by type and status.', ['type', 'status']);
  const reconciliations = gauge(
    'cfdi_reconciliations_waiting',
    'Documents whose PAC outcome was ambiguous and awaits a decision.',
  );
  const withoutWorkflow = gauge(
    'cfdi_work_without_workflow',
    'Accepted stamps and cancellations whose workflow has not started for over a minute.',
    ['work'],
  );
  const backlog = gauge('cfdi_webhook_backlog', 'Events not yet handed to delivery (the webhook outbox).');
  const oldest = gauge(
    'cfdi_webhook_backlog_oldest_seconds',
    'Age of the oldest event not yet handed to delivery (0 when none waits).',
  );
  const failing = gauge(
    'cfdi_webhook_endpoints_failing',
    'Enabled webhook endpoints whose last delivery failed (their deliveries are being retried).',
  );
  const filesFailed = gauge(
    'cfdi_document_files_failed',
    'Stamped documents whose PDF/ZIP rendering failed for good.',
  );
  // Created at the first audit: before one ran there is no age to report (and 0 violations would be a claim).
  let audit: { violations: Gauge; age: Gauge } | null = null;

  return (numbers) => {
    documents.reset();
    for (const { type, status, count } of numbers.documentsByStatus) documents.set({ type, status }, count);
    reconciliations.set(numbers.awaitingReconciliation);
    for (const [work, count] of Object.entries(numbers.withoutWorkflow)) withoutWorkflow.set({ work }, count);
    backlog.set(numbers.webhooks.backlog);
    oldest.set(numbers.webhooks.oldestPendingSeconds);
    failing.set(numbers.webhooks.failingEndpoints);
    filesFailed.set(numbers.filesFailed);
    if (numbers.lastAudit) {
      audit ??= {
        violations: gauge(
          'cfdi_ledger_audit_violations',
          'Money invariant violations found by the last ledger audit (it runs every 15 minutes).',
        ),
        age: gauge('cfdi_ledger_audit_age_seconds', 'Seconds since the last ledger audit.'),
      };
      audit.violations.set(numbers.lastAudit.violations);
      audit.age.set(numbers.lastAudit.ageSeconds);
    }
  };
}
