import { ApplicationFailure, Context } from '@temporalio/activity';
import {
  AppError,
  createGlobalInvoice,
  dueGlobalPeriods,
  globalInvoiceMerchants,
  loadDocumentById,
  stampOutcomeOf,
  type GlobalInvoiceMerchant,
  type StampOutcome,
} from '@cfdi/services';
import type {
  Activities,
  GlobalInvoiceInput,
  GlobalInvoiceRun,
  GlobalScheduleSyncReport,
} from '@cfdi/temporal-contract';
import { globalInvoiceScheduleId } from '@cfdi/temporal-contract';
import { syncGlobalInvoiceSchedule } from '@cfdi/temporal-contract/client';
import type { ActivityDeps } from './deps';

const SCHEDULE_PREFIX = globalInvoiceScheduleId('');
/** The merchant whose global-invoice Schedule this is, or null for another Schedule. */
const merchantOfSchedule = (scheduleId: string) =>
  scheduleId.startsWith(SCHEDULE_PREFIX) ? scheduleId.slice(SCHEDULE_PREFIX.length) : null;

type GlobalInvoiceActivities = Pick<
  Activities,
  'createGlobalInvoice' | 'currentStampOutcome' | 'dueGlobalInvoices' | 'syncGlobalInvoiceSchedules'
>;

export function globalInvoiceActivities(deps: ActivityDeps): GlobalInvoiceActivities {
  const em = () => deps.orm.em.fork();
  return {
    /**
     * The period's global invoice, created once (see createGlobalInvoice): a retry finds the document the first
     * attempt committed. A refusal no retry changes (no CSD, no balance, an invalid document) is non-retryable.
     */
    async createGlobalInvoice(run: GlobalInvoiceRun): Promise<{ documentId: string | null }> {
      try {
        return await createGlobalInvoice(
          em(),
          { config: deps.config, catalogs: deps.catalogs, ...(deps.now ? { now: deps.now } : {}) },
          run,
        );
      } catch (error) {
        if (error instanceof AppError && error.status < 500)
          throw ApplicationFailure.nonRetryable(error.message, error.code, { cause: error });
        throw error;
      }
    },

    /** Read-only. */
    async currentStampOutcome(documentId: string): Promise<StampOutcome | null> {
      return stampOutcomeOf(await loadDocumentById(em(), documentId));
    },

    /** Read-only: the due periods of the merchant's global invoice as the workflow's inputs. */
    async dueGlobalInvoices(merchantId: string): Promise<GlobalInvoiceInput[]> {
      const merchants = await globalInvoiceMerchants(em(), { ids: [merchantId] });
      const merchant = merchants[0];
      if (!merchant?.enabled) return [];
      const periods = await dueGlobalPeriods(em(), merchantId, deps.now?.() ?? new Date());
      return periods.map((period) => ({
        accountId: merchant.accountId,
        livemode: merchant.livemode,
        merchantId,
        period,
        reconciliation: deps.config.reconciliation,
      }));
    },

    /**
     * Every merchant's Schedule as its setting says: created when missing, resumed, paused, removed for a deleted
     * merchant. Repeatable: a Schedule already right is left alone.
     */
    async syncGlobalInvoiceSchedules(taskQueue: string): Promise<GlobalScheduleSyncReport> {
      const client = Context.current().client;
      const report: GlobalScheduleSyncReport = { created: [], resumed: [], paused: [] };
      const sync = async (merchant: GlobalInvoiceMerchant) => {
        const change = await syncGlobalInvoiceSchedule(client, merchant, taskQueue);
        if (change === 'created' || change === 'resumed' || change === 'paused')
          report[change].push(merchant.merchantId);
        Context.current().heartbeat(merchant.merchantId);
      };
      const enabled = await globalInvoiceMerchants(em(), {});
      for (const merchant of enabled) await sync(merchant);
      // Schedules of merchants whose global invoice is off, or that were deleted, meanwhile: paused or removed.
      const others: string[] = [];
      for await (const schedule of client.schedule.list()) {
        const merchantId = merchantOfSchedule(schedule.scheduleId);
        if (merchantId && !enabled.some((m) => m.merchantId === merchantId)) others.push(merchantId);
      }
      const known = await globalInvoiceMerchants(em(), { ids: others });
      for (const merchantId of others)
        await sync(
          known.find((m) => m.merchantId === merchantId) ?? {
            merchantId,
            accountId: '',
            livemode: false,
            enabled: false,
            deleted: true,
          },
        );
      return report;
    },
  };
}
