import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';

/**
 * How long Temporal keeps a closed workflow's history (visible in the UI, replayable). Documents, money and files
 * live in PostgreSQL and S3 and never depend on it; 30 days matches how long webhook events are kept.
 */
export const DEFAULT_RETENTION_DAYS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers `namespace` with an explicit retention, or sets that retention on an existing one, then waits until
 * the frontend serves it (a new namespace reaches the frontend's cache some seconds after it is written). Retries
 * while the server is still starting (its history shards are owned a little after the frontend listens).
 */
export async function ensureNamespace(
  address: string,
  namespace: string,
  retentionDays: number,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const retention = msToTs(`${retentionDays} days`);
  let connection: Connection | undefined;
  try {
    for (let registered = false, served = false; !served;) {
      try {
        connection ??= await Connection.connect({ address });
        const service = connection.workflowService;
        if (!registered) {
          try {
            await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: retention });
          } catch (error) {
            if ((error as { code?: number }).code !== ALREADY_EXISTS) throw error;
            await service.updateNamespace({
              namespace,
              config: { workflowExecutionRetentionTtl: retention },
            });
          }
          registered = true;
        }
        await service.listWorkflowExecutions({ namespace, pageSize: 1 });
        served = true;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(
            `Temporal namespace ${namespace} at ${address} not ready: ${(error as Error).message}`,
          );
        await sleep(500);
      }
    }
  } finally {
    await connection?.close();
  }
}

/** gRPC status of "namespace already registered". */
const ALREADY_EXISTS = 6;
