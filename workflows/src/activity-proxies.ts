import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '@cfdi/temporal-contract';

/** The activity options the document workflows (stamp and cancel) share; each keeps its PAC step's own. */

// Database steps are short and idempotent (each transition happens once): local activities (no server round trip),
// retried freely.
export const databaseSteps = proxyLocalActivities<Activities>({
  startToCloseTimeout: '20 seconds',
  retry: { initialInterval: '200 milliseconds', maximumInterval: '10 seconds' },
});

// The merchant's automatic e-mail is queued by a regular activity, not a local one: the workflow task that answers the
// API's update completes first, so the answer never waits for it. Retried until the database takes it.
export const emailQueue = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

// SAT reads (reconciliation, a cancellation's status while the receiver decides): a read is always safe, so retry
// until the PAC answers.
export const satLookups = proxyActivities<Activities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes' },
});
