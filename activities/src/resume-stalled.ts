import { Context } from '@temporalio/activity';
import { STALLED_AFTER_SECONDS, stalledDocuments, type StalledDocument, type StalledWork } from '@cfdi/services';
// Not declared in package.json: @cfdi/workflows declares this package (for its activity types), and turbo refuses cycles.
import { resumeWorkflowOf, type ResumableWork } from '@cfdi/workflows/client';
import type { ActivityDeps } from './deps';

const PAGE = 100;
/** Bounds one sweep per kind; the next sweep, a minute later, goes on from the oldest again. */
const MAX_PER_SWEEP = 1_000;

export interface ResumeStalledReport {
  checked: number;
  /** Documents whose stamp or cancel workflow was missing and now runs. */
  resumed: Array<{ documentId: string; work: StalledWork }>;
}

export function resumeStalledActivities(deps: ActivityDeps) {
  const inputOf = (work: StalledWork, documentId: string): ResumableWork => (work === 'stamping'
    ? { kind: 'stamping', input: { documentId, reconciliation: deps.config.reconciliation } }
    : { kind: 'cancellation', input: { documentId, polling: deps.config.cancellationPolling } });

  return {
    /**
     * Starts the workflow of every stamp and cancellation request the API accepted (timbre reserved) but could not
     * hand over: it died, or Temporal was unreachable, between committing the document and starting its workflow.
     * Work whose workflow runs is left alone, so the sweep is safe to repeat and to overlap with the API.
     */
    async resumeStalledDocuments(taskQueue: string): Promise<ResumeStalledReport> {
      const client = Context.current().client;
      const report: ResumeStalledReport = { checked: 0, resumed: [] };
      for (const work of ['stamping', 'cancellation'] as const) {
        let after: StalledDocument | undefined;
        for (let checked = 0; checked < MAX_PER_SWEEP;) {
          const page = await stalledDocuments(deps.orm.em.fork(), work, { olderThanSeconds: STALLED_AFTER_SECONDS, limit: PAGE, ...(after ? { after } : {}) });
          for (const document of page) {
            if (await resumeWorkflowOf(client, inputOf(work, document.id), taskQueue)) report.resumed.push({ documentId: document.id, work });
            Context.current().heartbeat(document.id);
          }
          checked += page.length;
          report.checked += page.length;
          if (page.length < PAGE) break;
          after = page[page.length - 1];
        }
      }
      return report;
    },
  };
}
