import './heap-growth';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '@cfdi/config';
import { ensureLedgerAuditSchedule, ensureResumeStalledSchedule, ensureWebhookDispatchSchedule } from '@cfdi/workflows/client';
import { createWorkerDeps } from './deps';
import { createWorker, webhookDispatchInput } from './worker';

/** The Temporal worker: runs every workflow and activity of the platform on the stamping task queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await createWorkerDeps(config);
  const workers = await createWorker(config, deps);

  const clientConnection = await Connection.connect({ address: config.temporal.address });
  const client = new Client({ connection: clientConnection, namespace: config.temporal.namespace });
  await ensureLedgerAuditSchedule(client, config.temporal.taskQueue);
  await ensureResumeStalledSchedule(client, config.temporal.taskQueue);
  await ensureWebhookDispatchSchedule(client, config.temporal.taskQueue, webhookDispatchInput(config));
  await clientConnection.close();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => workers.shutdown());
  await workers.run();
  await deps.close();
  await workers.connection.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
