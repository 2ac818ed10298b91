import { computeInvoice, globalReceiver, type InvoiceItem } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { prepareInvoice, type InvoiceCreate } from '../documents/create-invoice';
import { storePrepared } from '../documents/prepared-document';
import type { StampingDeps } from '../documents/stamping-deps';
import type { Scope } from '../scope';
import {
  addDays,
  globalPeriodOf,
  mexicoCityDay,
  mexicoCityMidnight,
  type GlobalPeriod,
  type Periodicidad,
} from './global-period';
import { formaPagoOf } from './invoice-receipts';
import {
  claimGlobalInvoicePeriod,
  lockOpenReceipts,
  markReceiptsInGlobal,
  selectOpenReceiptDays,
  selectOpenReceiptsBetween,
  selectPeriodDocument,
  type ReceiptPeriod,
  type ReceiptRow,
} from './receipt-repository';
import {
  selectGlobalInvoiceMerchants,
  selectGlobalInvoiceSettings,
  selectMerchantZip,
} from '../merchants/merchant-repository';

/** Whose global invoice, and of which period: what the workflow, its id and its activities are given. */
export interface GlobalInvoiceRun {
  accountId: string;
  livemode: boolean;
  merchantId: string;
  period: GlobalPeriod;
}

/** The merchant's automatic global invoice as it is set. */
export interface GlobalInvoiceSettings {
  enabled: boolean;
  periodicity: Periodicidad;
  receiptGraceDays: number;
}

/** The run's scope: the merchant's account and mode, as its own (the run acts for the merchant, on no key). */
const scopeOf = (run: Pick<GlobalInvoiceRun, 'accountId' | 'livemode'>): Scope => ({
  accountId: run.accountId,
  livemode: run.livemode,
  keyId: 'global-invoice',
  merchantIds: null,
});

/** Receipts sold in the period (Mexico City days) that nobody invoiced, cancelled or put in a global yet. */
const openReceiptsOfPeriod = (em: EntityManager, run: GlobalInvoiceRun): Promise<ReceiptRow[]> =>
  selectOpenReceiptsBetween(
    em,
    run,
    mexicoCityMidnight(run.period.start),
    mexicoCityMidnight(run.period.end),
  );

/** The run's period as its `global_invoices` row is keyed. */
const periodOf = (run: GlobalInvoiceRun): ReceiptPeriod => ({
  accountId: run.accountId,
  livemode: run.livemode,
  merchantId: run.merchantId,
  periodicidad: run.period.periodicidad,
  start: run.period.start,
  end: run.period.end,
});

const taxKey = (item: InvoiceItem) =>
  JSON.stringify([item.taxable ?? true, String(item.ivaRate ?? '0.16'), String(item.iepsRate ?? '')]);

/**
 * One concept per ticket, as the SAT's global-invoice guide asks (cfdi40.md §1.3): ClaveProdServ 01010101, ClaveUnidad
 * ACT, Cantidad 1, Descripcion "Venta", NoIdentificacion the receipt's id, ValorUnitario the ticket's subtotal (its
 * amount before taxes, as the tax engine computed it for the ticket) and the ticket's taxes. A ticket whose items carry
 * different taxes (IVA 16 % and exento, say) is one concept per tax treatment, all with its id: a concept has one.
 */
export function globalConcepts(rows: ReceiptRow[]): InvoiceItem[] {
  return rows.flatMap((row) => {
    const groups = new Map<string, InvoiceItem[]>();
    for (const item of row.items) groups.set(taxKey(item), [...(groups.get(taxKey(item)) ?? []), item]);
    return [...groups.values()].map((items) => {
      const first = items[0]!;
      const { subTotal } = computeInvoice({ items, pricesIncludeTax: row.prices_include_tax });
      return {
        productCode: '01010101',
        unitCode: 'ACT',
        description: 'Venta',
        quantity: 1,
        unitPrice: subTotal,
        noIdentificacion: row.id,
        ...(first.taxable !== undefined ? { taxable: first.taxable } : {}),
        ...(first.ivaRate !== undefined ? { ivaRate: first.ivaRate } : {}),
        ...(first.iepsRate !== undefined ? { iepsRate: first.iepsRate } : {}),
      };
    });
  });
}

/** The receipts moved under the run's feet (a customer invoiced one, or another run holds the period): start over. */
class PeriodChanged extends Error {}

/**
 * Creates the period's global invoice (stored `stamping` with its timbre reserved, as every create) over the
 * merchant's receipts of the period still open, and marks them `in_global` in the same transaction; returns its id,
 * or null when the period has no open receipt. Idempotent per (merchant, periodicity, period start): the
 * `global_invoices` row is claimed in that transaction, so a repeated run or a retried activity returns the period's
 * document and creates nothing (a document that failed to stamp is replaced by a new attempt). A receipt a customer
 * invoices meanwhile is decided by the row locks and the conditional update: taken by the customer first, the run
 * starts over without it; locked by the run first, the customer's conditional update misses it (409).
 */
export async function createGlobalInvoice(
  em: EntityManager,
  deps: StampingDeps,
  run: GlobalInvoiceRun,
): Promise<{ documentId: string | null }> {
  const scope = scopeOf(run);
  const zip = await selectMerchantZip(em, run.merchantId);
  for (let attempt = 0; attempt < 10; attempt++) {
    const existing = await selectPeriodDocument(em, periodOf(run));
    if (existing && existing.status !== 'stamp_failed') return { documentId: existing.document_id };
    const rows = await openReceiptsOfPeriod(em, run);
    if (!rows.length) return { documentId: null };
    const ids = rows.map((row) => row.id);
    const body: InvoiceCreate = {
      merchantId: run.merchantId,
      formaPago: formaPagoOf(rows),
      metodoPago: 'PUE',
      // PUBLICO EN GENERAL at the merchant's own zip, régimen 616, uso S01 (cfdi40.md §1.3).
      receiver: globalReceiver(zip!),
      usoCfdi: 'S01',
      pricesIncludeTax: false,
      items: globalConcepts(rows),
      informacionGlobal: {
        periodicidad: run.period.periodicidad,
        meses: run.period.meses,
        anio: run.period.anio,
      },
    };
    const prepared = await prepareInvoice(em, deps, scope, body);
    try {
      return await em.transactional(async (tx) => {
        // The document first, then the receipts' rows, in the order a customer's invoice of receipts takes its locks
        // (folio and balance, then receipts), so the two never deadlock; in id order, so two runs never wait on each
        // other crosswise. A receipt taken since the read is missing from the locked rows: start over without it.
        const document = await storePrepared(tx, deps.config, scope, prepared);
        if ((await lockOpenReceipts(tx, ids)) !== ids.length) throw new PeriodChanged();
        if (!(await claimGlobalInvoicePeriod(tx, periodOf(run), document.id))) throw new PeriodChanged();
        await markReceiptsInGlobal(tx, document.id, ids);
        return { documentId: document.id };
      });
    } catch (error) {
      if (!(error instanceof PeriodChanged)) throw error;
    }
  }
  throw new Error(`the open receipts of ${run.merchantId}'s period ${run.period.start} kept changing`);
}

/** The merchant's setting, or null for a merchant deleted or unknown (its schedule then has nothing to do). */
export async function globalInvoiceSettings(
  em: EntityManager,
  merchantId: string,
): Promise<GlobalInvoiceSettings | null> {
  const row = await selectGlobalInvoiceSettings(em, merchantId);
  return row
    ? {
        enabled: row.global_invoice_enabled,
        periodicity: row.global_invoice_periodicity,
        receiptGraceDays: row.receipt_grace_days,
      }
    : null;
}

/** How far back a scheduled run looks for open receipts: a bimonthly period and its longest grace fit in it. */
const LOOKBACK_DAYS = 130;

/**
 * The periods a scheduled run of the merchant's global invoice covers at `now`: those of its periodicity that hold
 * open receipts sold within the lookback and ended at least `receiptGraceDays` days ago (the grace lets customers
 * invoice a sale after its period, the expiry lever of receipts), oldest first. Empty when the setting is off. A run
 * that missed a day (a worker down) catches up at the next.
 */
export async function dueGlobalPeriods(
  em: EntityManager,
  merchantId: string,
  now: Date,
): Promise<GlobalPeriod[]> {
  const settings = await globalInvoiceSettings(em, merchantId);
  if (!settings?.enabled) return [];
  const days = await selectOpenReceiptDays(
    em,
    merchantId,
    new Date(now.getTime() - LOOKBACK_DAYS * 86_400_000),
  );
  const today = mexicoCityDay(now);
  const periods = new Map<string, GlobalPeriod>();
  for (const day of days) {
    const period = globalPeriodOf(day, settings.periodicity);
    if (addDays(period.end, settings.receiptGraceDays) <= today) periods.set(period.start, period);
  }
  return [...periods.values()].sort((a, b) => a.start.localeCompare(b.start));
}

/** A merchant as its global-invoice Schedule sees it. */
export interface GlobalInvoiceMerchant {
  merchantId: string;
  accountId: string;
  livemode: boolean;
  enabled: boolean;
  deleted: boolean;
}

/**
 * The merchants whose global invoice is on (not deleted), or, given `ids`, those merchants in any state (an unknown
 * id is left out): what the Schedules' sync compares Temporal with.
 */
export async function globalInvoiceMerchants(
  em: EntityManager,
  filter: { ids?: string[] },
): Promise<GlobalInvoiceMerchant[]> {
  const rows = await selectGlobalInvoiceMerchants(em, filter.ids);
  return rows.map((row) => ({
    merchantId: row.id,
    accountId: row.account_id,
    livemode: row.livemode,
    enabled: row.global_invoice_enabled && row.deleted_at === null,
    deleted: row.deleted_at !== null,
  }));
}
