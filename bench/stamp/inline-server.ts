// bench/stamp reference mode "inline": the real API (same request, validation, transaction, idempotency, answer)
// with the stamp workflow replaced by a direct call of its fast-path activity in this process: what the API hands to
// the workflow (the 500-item case) is sealed, sent and recorded as the worker does it, without Temporal. The small
// invoices the API stamps itself take the same path as in the real mode. Bench-only: nothing ships or configures this.
import { Client } from '@temporalio/client';
import { loadConfig } from '@cfdi/config';
import { createActivities, type ActivityDeps } from '@cfdi/activities';
import { generateDocumentFiles } from '@cfdi/services';
import { buildApp } from '@cfdi/api';
import { createAppDeps } from '../../apps/api/src/deps';
import { createWorkerDeps } from '@cfdi/worker';
import type { Activities, StampOutcome, StampWorkflowInput } from '@cfdi/temporal-contract';

/**
 * What the stamp workflow answers through its update, computed by its fast path alone (no reconciliation). A large
 * document's files are rendered after the answer, in this process, as the worker's files queue does (the activity
 * itself needs an activity context): the inline mode does the same work as the platform.
 */
async function stampInline(
  activities: Activities,
  deps: ActivityDeps,
  input: StampWorkflowInput,
): Promise<StampOutcome> {
  let attempt = await activities.stampDocument(input.documentId);
  if (attempt.outcome === 'unrecorded')
    attempt = await activities.recordStampResult(input.documentId, attempt.result);
  if (attempt.outcome === 'stamped' && attempt.document.files_status !== 'ready')
    setImmediate(() => {
      generateDocumentFiles(deps.orm.em.fork(), deps.files, input.documentId, {
        markFailedOnError: true,
      }).catch((error: Error) => console.error(`inline files of ${input.documentId}: ${error.message}`));
    });
  return attempt;
}

/** A Temporal client whose update-with-start runs the stamp in process (the only calls stampAndAnswer makes). */
function inlineClient(activities: Activities, deps: ActivityDeps): Client {
  const workflow = {
    executeUpdateWithStart: (
      _update: unknown,
      options: { startWorkflowOperation: { options: { args: [StampWorkflowInput] } } },
    ) => stampInline(activities, deps, options.startWorkflowOperation.options.args[0]),
  };
  return {
    workflow,
    withAbortSignal: (_signal: AbortSignal, fn: () => Promise<unknown>) => fn(),
  } as unknown as Client;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config);
  const workerDeps = await createWorkerDeps(config);
  const activities = createActivities(workerDeps);
  const app = await buildApp({ ...deps, temporal: inlineClient(activities, workerDeps) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.INLINE_PORT) });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
