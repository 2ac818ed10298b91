import { Context } from '@temporalio/activity';
import { stalledStampings, type StalledStamping } from '@cfdi/services';
// Not declared in package.json: @cfdi/workflows declares this package (for its activity types), and turbo refuses cycles.
import { resumeStamping } from '@cfdi/workflows/client';
import type { ActivityDeps } from './deps';

/** Younger documents are still in the API's hands (it starts their workflow right after committing them). */
const STALLED_AFTER_SECONDS = 60;
const PAGE = 100;
/** Bounds one sweep; the next one, a minute later, goes on from the oldest again. */
const MAX_PER_SWEEP = 1_000;

export interface StampRecoveryReport {
  checked: number;
  /** Documents that had no running workflow and now have one. */
  started: string[];
}

export function stampRecoveryActivities(deps: ActivityDeps) {
  return {
    /**
     * Starts the stamp workflow of every accepted document left without one: the API died, or Temporal was
     * unreachable, between committing the document (timbre reserved) and starting its workflow. Documents whose
     * workflow runs are left alone, so the sweep is safe to repeat and to overlap with the API.
     */
    async resumeStalledStamps(taskQueue: string): Promise<StampRecoveryReport> {
      const client = Context.current().client;
      const report: StampRecoveryReport = { checked: 0, started: [] };
      let after: StalledStamping | undefined;
      while (report.checked < MAX_PER_SWEEP) {
        const page = await stalledStampings(deps.orm.em.fork(), { olderThanSeconds: STALLED_AFTER_SECONDS, limit: PAGE, ...(after ? { after } : {}) });
        for (const document of page) {
          if (await resumeStamping(client, { documentId: document.id, reconciliation: deps.config.reconciliation }, taskQueue)) {
            report.started.push(document.id);
          }
          Context.current().heartbeat(document.id);
        }
        report.checked += page.length;
        if (page.length < PAGE) break;
        after = page[page.length - 1];
      }
      return report;
    },
  };
}
