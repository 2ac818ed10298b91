import {
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type Client,
  type Workflow,
  type WorkflowHandle,
  type WorkflowStartOptions,
} from '@temporalio/client';
import type {
  CancelDocumentWorkflow,
  DeliverWebhookWorkflow,
  GlobalInvoiceWorkflow,
  ExportDocumentsWorkflow,
  SendEmailWorkflow,
  RegenerateFilesWorkflow,
  StampDocumentWorkflow,
} from './workflows';
import type { WebhookDeliveryInput, WebhookDispatchInput } from './webhooks';
import type { SendEmailInput } from './emails';
import type { CancelOutcome, CancelWorkflowInput } from './cancellation';
import {
  cancelOutcomeUpdate,
  cancelWorkflowId,
  emailWorkflowId,
  GLOBAL_INVOICE_SCHEDULES_SYNC_ID,
  globalInvoiceScheduleId,
  globalInvoiceWorkflowId,
  exportWorkflowId,
  LEDGER_AUDIT_SCHEDULE_ID,
  regenerateFilesWorkflowId,
  resolveReconciliationSignal,
  RESUME_STALLED_SCHEDULE_ID,
  stampOutcomeUpdate,
  stampWorkflowId,
  TASK_QUEUE,
  webhookDispatchScheduleId,
  webhooksTaskQueue,
} from './names';
import type { OperatorResolution, StampOutcome, StampWorkflowInput } from './stamping';
import type { GlobalInvoiceInput, GlobalInvoiceOutcome } from './global-invoices';

export * from './index';

/**
 * Creates a schedule once; an existing one is left as it is (idempotent). Overlapping runs are skipped unless
 * `overlap` says otherwise.
 */
async function ensureSchedule(
  client: Client,
  scheduleId: string,
  workflowType: string,
  taskQueue: string,
  every: string,
  options: { args?: unknown[]; overlap?: ScheduleOverlapPolicy; triggerImmediately?: boolean } = {},
): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every }] },
      action: { type: 'startWorkflow', workflowType, taskQueue, args: options.args ?? [] },
      policies: { overlap: options.overlap ?? ScheduleOverlapPolicy.SKIP },
      ...(options.triggerImmediately ? { state: { triggerImmediately: true } } : {}),
    });
  } catch (error) {
    if ((error as Error).name !== 'ScheduleAlreadyRunning') throw error;
  }
}

/** The periodic ledger audit (money invariants). */
export async function ensureLedgerAuditSchedule(
  client: Client,
  taskQueue: string = TASK_QUEUE,
  every = '15 minutes',
): Promise<void> {
  await ensureSchedule(client, LEDGER_AUDIT_SCHEDULE_ID, 'ledgerAuditWorkflow', taskQueue, every);
}

/** The periodic sweep that starts the workflow of any accepted stamp or cancellation left without one. */
export async function ensureResumeStalledSchedule(
  client: Client,
  taskQueue: string = TASK_QUEUE,
  every = '1 minute',
): Promise<void> {
  await ensureSchedule(client, RESUME_STALLED_SCHEDULE_ID, 'resumeStalledWorkflow', taskQueue, every);
}

/**
 * The outbox dispatcher: each run drains for about a minute and the next starts as soon as it ends (one buffered
 * start, never two at once), so exactly one dispatcher runs per task queue however many workers there are, and a
 * run lost with its worker is replaced at the next tick. The first run starts at once.
 */
export async function ensureWebhookDispatchSchedule(
  client: Client,
  taskQueue: string,
  input: WebhookDispatchInput,
): Promise<void> {
  await ensureSchedule(
    client,
    webhookDispatchScheduleId(taskQueue),
    'dispatchWebhooksWorkflow',
    webhooksTaskQueue(taskQueue),
    '1 minute',
    {
      args: [input],
      overlap: ScheduleOverlapPolicy.BUFFER_ONE,
      triggerImmediately: true,
    },
  );
}

/**
 * Starts one delivery on `taskQueue` (a webhooks queue, see `webhooksTaskQueue`). A workflow id already used (running or closed) is never run again, so
 * a repeated dispatch delivers nothing twice; false then.
 */
export async function startWebhookDelivery(
  client: Client,
  input: WebhookDeliveryInput,
  options: { taskQueue: string; workflowId: string },
): Promise<boolean> {
  return startOnce<DeliverWebhookWorkflow>(client, 'deliverWebhookWorkflow', { ...options, args: [input] });
}

/**
 * Starts the workflow that sends one e-mail delivery, on the webhooks queue beside `taskQueue` (outbound I/O, never
 * a stamping slot). Its id derives from the delivery, and an id already used is never run again: false then.
 */
export async function startEmailDelivery(
  client: Client,
  input: SendEmailInput,
  taskQueue: string,
): Promise<boolean> {
  return startOnce<SendEmailWorkflow>(client, 'sendEmailWorkflow', {
    workflowId: emailWorkflowId(input.deliveryId),
    taskQueue: webhooksTaskQueue(taskQueue),
    args: [input],
  });
}

/** Starts the workflow that builds a console export (its row is recorded first); its id derives from the export. */
export async function startDocumentExport(
  client: Client,
  exportId: string,
  taskQueue: string,
): Promise<boolean> {
  return startOnce<ExportDocumentsWorkflow>(client, 'exportDocumentsWorkflow', {
    workflowId: exportWorkflowId(exportId),
    taskQueue,
    args: [exportId],
  });
}

/**
 * Starts a workflow whose id is never run twice (REJECT_DUPLICATE): true when this call started it, false when that
 * id was already used, running or closed.
 */
export async function startOnce<W extends Workflow>(
  client: Client,
  workflowType: string,
  options: WorkflowStartOptions<W>,
): Promise<boolean> {
  try {
    await client.workflow.start<W>(workflowType, {
      ...options,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/**
 * Starts the stamp workflow of a document and waits up to `waitMs` for its outcome, in one call (update-with-start).
 * The workflow id derives from the document, so "already started" attaches to the running one. `null` means the
 * wait ran out and the workflow goes on by itself; after an interrupted call the start is confirmed explicitly, so a
 * timeout never leaves a document without its workflow. A workflow that already closed answers with its result.
 */
export async function startStamping(
  client: Client,
  input: StampWorkflowInput,
  options: { taskQueue: string; waitMs: number },
): Promise<StampOutcome | null> {
  const workflowOptions = {
    workflowId: stampWorkflowId(input.documentId),
    taskQueue: options.taskQueue,
    args: [input] as [StampWorkflowInput],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  };
  const ensureStarted = () =>
    client.workflow.start<StampDocumentWorkflow>('stampDocumentWorkflow', workflowOptions);
  if (options.waitMs <= 0) {
    await ensureStarted();
    return null;
  }
  const startWorkflowOperation = new WithStartWorkflowOperation<StampDocumentWorkflow>(
    'stampDocumentWorkflow',
    workflowOptions,
  );
  try {
    const outcome = await awaitUpdate(
      client,
      () => client.workflow.executeUpdateWithStart(stampOutcomeUpdate, { startWorkflowOperation }),
      options.waitMs,
    );
    if (outcome === null) await ensureStarted();
    return outcome;
  } catch (error) {
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    return client.workflow.getHandle<StampDocumentWorkflow>(workflowOptions.workflowId).result();
  }
}

/**
 * Renders a stamped document's files again and waits for the outcome (rejects when the last attempt failed). A
 * regeneration already running for the document is joined, not doubled.
 */
export async function regenerateFiles(client: Client, documentId: string, taskQueue: string): Promise<void> {
  const handle = await client.workflow.start<RegenerateFilesWorkflow>('regenerateFilesWorkflow', {
    workflowId: regenerateFilesWorkflowId(documentId),
    taskQueue,
    args: [documentId],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
  });
  await handle.result();
}

/**
 * Starts the workflow of accepted work left without one (see `resumeStalledWorkflow`). A closed run is followed by
 * a new one: activities re-read the document, and what the PAC may already have done is answered from there (the
 * sealed bytes are re-sent unchanged; a cancellation of a cancelled UUID reports it cancelled). False when a run is
 * already going.
 */
export async function resumeWorkflowOf(
  client: Client,
  work: ResumableWork,
  taskQueue: string,
): Promise<boolean> {
  const start =
    work.kind === 'stamping'
      ? client.workflow.start<StampDocumentWorkflow>('stampDocumentWorkflow', {
          workflowId: stampWorkflowId(work.input.documentId),
          taskQueue,
          args: [work.input],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
        })
      : client.workflow.start<CancelDocumentWorkflow>('cancelDocumentWorkflow', {
          workflowId: cancelWorkflowId(work.input.documentId),
          taskQueue,
          args: [work.input],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
        });
  try {
    await start;
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

export type ResumableWork =
  { kind: 'stamping'; input: StampWorkflowInput } | { kind: 'cancellation'; input: CancelWorkflowInput };

/** Runs a waiting Update for at most `waitMs`; `null` when the wait ran out (the workflow goes on by itself). */
async function awaitUpdate<T>(client: Client, update: () => Promise<T>, waitMs: number): Promise<T | null> {
  if (waitMs <= 0) return null;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), waitMs);
  try {
    return await client.withAbortSignal(controller.signal, update);
  } catch (error) {
    if (controller.signal.aborted) return null;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the cancel workflow of a document and waits up to `waitMs` for the PAC's answer (`null`: still waiting).
 * A new request (`attach: false`) may find the previous request's run still closing: the API only accepts a request
 * once that run recorded its final state, so the helper waits (briefly) for it to end and starts afresh. A request recovered
 * after a crash (`attach: true`) attaches to the run it may already have started.
 */
export async function startCancellation(
  client: Client,
  input: CancelWorkflowInput,
  options: { taskQueue: string; waitMs: number; attach: boolean },
): Promise<CancelOutcome | null> {
  const start = (policy: WorkflowIdConflictPolicy) =>
    client.workflow.start<CancelDocumentWorkflow>('cancelDocumentWorkflow', {
      workflowId: cancelWorkflowId(input.documentId),
      taskQueue: options.taskQueue,
      args: [input],
      workflowIdConflictPolicy: policy,
    });
  let handle: WorkflowHandle<CancelDocumentWorkflow>;
  if (options.attach) {
    handle = await start(WorkflowIdConflictPolicy.USE_EXISTING);
  } else {
    try {
      handle = await start(WorkflowIdConflictPolicy.FAIL);
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      const previous = client.workflow
        .getHandle(cancelWorkflowId(input.documentId))
        .result()
        .then(
          () => true,
          () => true,
        );
      const ended = await Promise.race([
        previous,
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
      ]);
      // A run still going although the document says no request is in flight was superseded: replace it.
      handle = await start(
        ended ? WorkflowIdConflictPolicy.FAIL : WorkflowIdConflictPolicy.TERMINATE_EXISTING,
      );
    }
  }
  return awaitUpdate(client, () => handle.executeUpdate(cancelOutcomeUpdate), options.waitMs);
}

/**
 * Delivers an operator's reconciliation decision to the document's stamp workflow, starting one when none runs (its
 * run ended abnormally, was terminated, or never started): the new run finds the ambiguous outcome recorded, sends
 * nothing to the PAC, and takes the decision.
 */
export async function signalReconciliation(
  client: Client,
  input: StampWorkflowInput,
  resolution: OperatorResolution,
  taskQueue: string,
): Promise<void> {
  await client.workflow.signalWithStart<StampDocumentWorkflow, [OperatorResolution]>(
    'stampDocumentWorkflow',
    {
      workflowId: stampWorkflowId(input.documentId),
      taskQueue,
      args: [input],
      signal: resolveReconciliationSignal,
      signalArgs: [resolution],
    },
  );
}

/**
 * Makes a merchant's global-invoice Schedule match its setting: on → the Schedule exists and runs (created when
 * missing, resumed when paused); off → paused when it exists; `deleted` → removed. Safe to repeat and to race (the
 * setting's PATCH and the periodic sync both call it). Returns what it changed.
 */
export async function syncGlobalInvoiceSchedule(
  client: Client,
  merchant: { merchantId: string; enabled: boolean; deleted?: boolean },
  taskQueue: string,
): Promise<'created' | 'resumed' | 'paused' | 'deleted' | null> {
  const scheduleId = globalInvoiceScheduleId(merchant.merchantId);
  const handle = client.schedule.getHandle(scheduleId);
  let paused: boolean | null = null;
  try {
    paused = (await handle.describe()).state.paused;
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
  if (merchant.deleted) {
    if (paused === null) return null;
    await handle.delete();
    return 'deleted';
  }
  if (paused === null) {
    if (!merchant.enabled) return null;
    try {
      await client.schedule.create({
        scheduleId,
        // Daily, a quarter past midnight in Mexico City: each run stamps the periods that became due (a period's end
        // plus the merchant's grace days), so a day missed while workers were down is caught up the next day.
        spec: { calendars: [{ hour: 0, minute: 15 }], timezone: 'America/Mexico_City' },
        action: {
          type: 'startWorkflow',
          workflowType: 'merchantGlobalInvoicesWorkflow',
          taskQueue,
          args: [merchant.merchantId],
        },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if ((error as Error).name !== 'ScheduleAlreadyRunning') throw error;
      return null;
    }
    return 'created';
  }
  if (merchant.enabled && paused) {
    await handle.unpause('the merchant turned its global invoice on');
    return 'resumed';
  }
  if (!merchant.enabled && !paused) {
    await handle.pause('the merchant turned its global invoice off');
    return 'paused';
  }
  return null;
}

/** The periodic sync of the global-invoice Schedules with the merchants' settings (a Schedule lost is recreated). */
export async function ensureGlobalInvoiceSchedulesSync(
  client: Client,
  taskQueue: string = TASK_QUEUE,
  every = '10 minutes',
): Promise<void> {
  await ensureSchedule(
    client,
    GLOBAL_INVOICE_SCHEDULES_SYNC_ID,
    'syncGlobalInvoiceSchedulesWorkflow',
    taskQueue,
    every,
    {
      triggerImmediately: true,
    },
  );
}

/**
 * Runs one period's global invoice of a merchant and waits up to `waitMs` for its outcome (`null`: still running, it
 * goes on by itself). The workflow id derives from the merchant and period, so a run going (scheduled or asked by
 * hand) is joined, and one started again after it closed finds the period's document: one document per period.
 */
export async function runGlobalInvoice(
  client: Client,
  input: GlobalInvoiceInput,
  options: { taskQueue: string; waitMs: number },
): Promise<GlobalInvoiceOutcome | null> {
  const handle = await client.workflow.start<GlobalInvoiceWorkflow>('globalInvoiceWorkflow', {
    workflowId: globalInvoiceWorkflowId(input),
    taskQueue: options.taskQueue,
    args: [input],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), options.waitMs);
  });
  try {
    return await Promise.race([handle.result(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
