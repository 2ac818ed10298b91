// bench/stamp reference mode "inline": the real API (same request, validation, transaction, idempotency, answer)
// with the stamp workflow replaced by a direct call of its fast-path activity in this process: sealing, sandbox PAC
// call and recording as the worker does them, without Temporal. Bench-only: nothing ships or configures this.
import { Client } from '@temporalio/client';
import { loadConfig } from '@cfdi/config';
import { createActivities } from '@cfdi/activities';
import { buildApp } from '@cfdi/api';
import { createAppDeps } from '../../apps/api/src/deps';
import { createWorkerDeps } from '@cfdi/worker';
import type { Activities, StampOutcome, StampWorkflowInput } from '@cfdi/temporal-contract';

/** What the stamp workflow answers through its update, computed by its fast path alone (no reconciliation). */
async function stampInline(activities: Activities, input: StampWorkflowInput): Promise<StampOutcome> {
  let attempt = await activities.stampDocument(input.documentId);
  if (attempt.outcome === 'unrecorded')
    attempt = await activities.recordStampResult(input.documentId, attempt.result);
  if (attempt.outcome === 'stamped' && attempt.document.files_status !== 'ready')
    void activities.generateDocumentFiles(input.documentId).catch(() => undefined);
  return attempt;
}

/** A Temporal client whose update-with-start runs the stamp in process (the only calls stampAndAnswer makes). */
function inlineClient(activities: Activities): Client {
  const workflow = {
    executeUpdateWithStart: (
      _update: unknown,
      options: { startWorkflowOperation: { options: { args: [StampWorkflowInput] } } },
    ) => stampInline(activities, options.startWorkflowOperation.options.args[0]),
  };
  return {
    workflow,
    withAbortSignal: (_signal: AbortSignal, fn: () => Promise<unknown>) => fn(),
  } as unknown as Client;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createAppDeps(config);
  const activities = createActivities(await createWorkerDeps(config));
  const app = await buildApp({ ...deps, temporal: inlineClient(activities) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.INLINE_PORT) });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
