/**
 * The one place that names Temporal things. Task queues are versioned so a breaking change can run beside the
 * old workers while their workflows drain.
 */
export const TASK_QUEUE = 'stamping-v1';

export const LEDGER_AUDIT_SCHEDULE_ID = 'ledger-audit';
