import { randomBytes } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startPacSandbox, type RunningPacSandbox } from '@cfdi/pac-sandbox';
import { createWorker, createWorkerDeps } from '@cfdi/worker';
import { startApi, type ApiHarness } from './harness';
import { EKU, newMerchant, PINNED_NOW, satUpload } from './merchant-fixtures';

export interface StackHarness {
  api: ApiHarness;
  sandbox: RunningPacSandbox;
  taskQueue: string;
  /** Stops the in-process worker (to simulate a crash, use a child-process worker instead). */
  stopWorker(): Promise<void>;
  startWorker(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A clock that starts at PINNED_NOW and advances in real time: every component (API, worker, sandbox PAC) agrees
 * on "now", the SAT test CSDs stay valid whatever the calendar says, and Fecha moves like a real clock.
 */
export function shiftedClock(start: Date = PINNED_NOW): () => Date {
  const offset = start.getTime() - Date.now();
  return () => new Date(Date.now() + offset);
}

/** The whole stamping stack in this process: sandbox PAC, API and a worker on a task queue of its own. */
/**
 * The suites exercise the receiver's acceptance flow on freshly stamped documents, so their sandbox does not apply
 * RMF 2.7.1.35-IX (on by default, as at the SAT) unless `sandboxOptions` says so.
 */
export async function startStack(
  env: Record<string, string> = {},
  sandboxOptions: { nextBusinessDayRule?: boolean } = { nextBusinessDayRule: false },
): Promise<StackHarness> {
  quietTemporalRuntime();
  const now = shiftedClock();
  const sandbox = await startPacSandbox({ now, ...sandboxOptions });
  const taskQueue = `test-${randomBytes(6).toString('hex')}`;
  const api = await startApi(
    { PAC_SANDBOX_URL: sandbox.url, TEMPORAL_TASK_QUEUE: taskQueue, ...env },
    { now },
  );
  const workerDeps = await createWorkerDeps(api.config, now);
  let running: { shutdown(): void; done: Promise<void>; connection: { close(): Promise<void> } } | null =
    null;

  const startWorker = async () => {
    const workers = await createWorker(api.config, workerDeps, {
      taskQueue,
      workflowBundlePath: process.env.TEST_WORKFLOW_BUNDLE,
    });
    running = { shutdown: () => workers.shutdown(), done: workers.run(), connection: workers.connection };
  };
  const stopWorker = async () => {
    if (!running) return;
    const current = running;
    running = null;
    current.shutdown();
    await current.done;
    await current.connection.close();
  };
  await startWorker();
  return {
    api,
    sandbox,
    taskQueue,
    startWorker,
    stopWorker,
    async close() {
      await stopWorker();
      await workerDeps.close();
      await api.close();
      await sandbox.close();
    },
  };
}

/**
 * A test account with a merchant (EKU9003173C9) whose SAT test CSD is registered with the sandbox PAC. Each merchant
 * gets its own serie: every test account issues as the same RFC, and two documents with the same serie, folio,
 * second and content would be byte-identical CFDIs, which the PAC rightly treats as one.
 */
export async function stampingAccount(stack: StackHarness, merchant: Record<string, unknown> = EKU) {
  const account = await stack.api.newAccount();
  const serie = `T${randomBytes(4).toString('hex').toUpperCase()}`;
  const created = await newMerchant(stack.api, account.testKey, { serie, ...merchant });
  const csd = await stack.api.request('POST', `/v1/merchants/${created.id}/csd`, {
    key: account.testKey,
    body: satUpload('EKU9003173C9-csd'),
  });
  if (csd.status !== 201) throw new Error(`CSD not accepted: ${csd.status} ${JSON.stringify(csd.body)}`);
  return { ...account, merchantId: created.id as string, serie: created.serie as string };
}

export const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};

export function invoiceBody(merchantId: string, overrides: Record<string, unknown> = {}) {
  return {
    merchantId,
    formaPago: '03',
    usoCfdi: 'G03',
    receiver: RECEIVER,
    items: [
      {
        productCode: '43211503',
        unitCode: 'H87',
        description: 'Computadora portátil',
        quantity: 2,
        unitPrice: 11600,
        pedimentos: ['23 47 3807 3000123'],
      },
      {
        productCode: '86121503',
        unitCode: 'E48',
        description: 'Colegiatura',
        quantity: 1,
        unitPrice: 3500,
        taxable: false,
      },
    ],
    ...overrides,
  };
}

export const idempotencyKey = () => `ik-${randomBytes(8).toString('hex')}`;

let runtimeInstalled = false;
/** Worker logs at WARN in tests (the runtime is per process and can be installed once). */
function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ logger: new DefaultLogger('WARN') });
}
