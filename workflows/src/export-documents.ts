import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities, ExportPartState } from '@cfdi/temporal-contract';

// A part renders up to 100 PDFs not rendered yet: minutes at worst. The heartbeat (one per document) tells a dead
// worker within 30 s, and the part is written again by another worker, from the same state.
const { writeExportPart, finishExport } = proxyActivities<Activities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 10 },
});
const { failExport } = proxyActivities<Activities>({ startToCloseTimeout: '1 minute' });

/**
 * Builds a console export (CSV, or ZIP of XML + PDF) part by part into storage; the state between parts lives in
 * this workflow's history, so a worker restart resumes at the part it was writing. Marks the export ready with its
 * file, or failed once a part's attempts ran out.
 */
export async function exportDocumentsWorkflow(
  exportId: string,
): Promise<{ status: 'ready' | 'failed'; documents: number }> {
  let state: ExportPartState = {
    part: 0,
    startingAfter: null,
    offset: 0,
    entries: 0,
    directoryBytes: 0,
    processed: 0,
  };
  try {
    for (;;) {
      const { done, ...next } = await writeExportPart({ exportId, state });
      state = next;
      if (done) break;
    }
    await finishExport({ exportId, state });
    return { status: 'ready', documents: state.processed };
  } catch (error) {
    const cause = (error as { cause?: Error }).cause ?? (error as Error);
    await failExport({
      exportId,
      reason: cause instanceof ApplicationFailure ? cause.message : String(cause.message),
    });
    return { status: 'failed', documents: state.processed };
  }
}
