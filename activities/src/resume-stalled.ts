import { Context } from '@temporalio/activity';
import {
  queuedEmailDeliveries,
  sendQueuedBalanceAlerts,
  STALLED_AFTER_SECONDS,
  stalledDocuments,
  type StalledDocument,
  type StalledWork,
} from '@cfdi/services';
import type { ResumeStalledReport } from '@cfdi/temporal-contract';
import { resumeWorkflowOf, startEmailDelivery, type ResumableWork } from '@cfdi/temporal-contract/client';
import type { ActivityDeps } from './deps';

/** The activity's own Temporal client. */
type Client = ReturnType<typeof Context.current>['client'];

const PAGE = 100;
/** Bounds one sweep per kind; the next sweep, a minute later, goes on from the oldest again. */
const MAX_PER_SWEEP = 1_000;

export function resumeStalledActivities(deps: ActivityDeps) {
  const inputOf = (work: StalledWork, documentId: string): ResumableWork =>
    work === 'stamping'
      ? { kind: 'stamping', input: { documentId, reconciliation: deps.config.reconciliation } }
      : { kind: 'cancellation', input: { documentId, polling: deps.config.cancellationPolling } };

  /** E-mails likewise: a delivery's workflow id derives from it, so one already started (or done) is not run again. */
  async function resumeEmailDeliveries(client: Client, taskQueue: string): Promise<string[]> {
    if (!deps.emails.mailer) return [];
    const resumed: string[] = [];
    for (const deliveryId of await queuedEmailDeliveries(
      deps.orm.em.fork(),
      STALLED_AFTER_SECONDS,
      MAX_PER_SWEEP,
    )) {
      if (await startEmailDelivery(client, { deliveryId, retry: deps.config.mail.retry }, taskQueue))
        resumed.push(deliveryId);
      Context.current().heartbeat(deliveryId);
    }
    return resumed;
  }

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
          const page = await stalledDocuments(deps.orm.em.fork(), work, {
            olderThanSeconds: STALLED_AFTER_SECONDS,
            limit: PAGE,
            ...(after ? { after } : {}),
          });
          for (const document of page) {
            if (await resumeWorkflowOf(client, inputOf(work, document.id), taskQueue))
              report.resumed.push({ documentId: document.id, work });
            Context.current().heartbeat(document.id);
          }
          checked += page.length;
          report.checked += page.length;
          if (page.length < PAGE) break;
          after = page[page.length - 1];
        }
      }
      report.emailsResumed = await resumeEmailDeliveries(client, taskQueue);
      // Low-balance warnings queued by the debits that crossed a threshold: sent here, within the minute.
      if (deps.emails.mailer)
        report.balanceAlertsSent = await sendQueuedBalanceAlerts(deps.orm.em.fork(), deps.emails.mailer);
      return report;
    },
  };
}
