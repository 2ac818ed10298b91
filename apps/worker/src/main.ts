import { NativeConnection, Worker } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '@cfdi/config';
import { createOrm } from '@cfdi/db';
import { createActivities } from '@cfdi/activities';
import { ensureLedgerAuditSchedule } from '@cfdi/workflows/client';

/** The Temporal worker: runs every workflow and activity of the platform on the stamping task queue. */
async function main(): Promise<void> {
  const config = loadConfig();
  const orm = await createOrm(config.databaseUrl);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: require.resolve('@cfdi/workflows'),
    activities: createActivities({ config, orm }),
  });

  const clientConnection = await Connection.connect({ address: config.temporal.address });
  await ensureLedgerAuditSchedule(new Client({ connection: clientConnection, namespace: config.temporal.namespace }), config.temporal.taskQueue);
  await clientConnection.close();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  await worker.run();
  await orm.close();
  await connection.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
