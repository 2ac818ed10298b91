// Worker of the bench's empty workflow (see empty-workflow.ts), tuned like the platform's stamping worker.
import { NativeConnection, Worker } from '@temporalio/worker';

async function main(): Promise<void> {
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    taskQueue: process.env.EMPTY_TASK_QUEUE!,
    workflowsPath: require.resolve('./empty-workflow'),
  });
  process.once('SIGTERM', () => worker.shutdown());
  await worker.run();
  await connection.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
