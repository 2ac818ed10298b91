import 'server-only';
import type { ListAnswer, ReceiptContext, RecordContext, RowCount, Scope } from '@cfdi/services';
import { currentLocale } from './i18n/locale';
import { listWindow } from './list-table';
import { em, platform } from './platform';
import { requirePermission } from './roles';
import { param, type SearchParams } from './search-params';
import { currentWorkspace } from './workspace';

/** What the records and issue actions act in: the workspace's Scope, the database and the SAT catalogs. */
export async function recordContext(): Promise<{ ctx: RecordContext; scope: Scope }> {
  const { scope } = await currentWorkspace();
  // An operator with no account yet has nothing to act on; the pages show no form then.
  if (!scope) throw new Error('no account in this workspace');
  return { ctx: { em: await em(), catalogs: (await platform()).catalogs }, scope };
}

/** The SAT's small catalogs the forms offer as choices. */
export async function catalogChoices() {
  const { catalogs } = await platform();
  const [regimenes, usos, formas, currencies] = await Promise.all([
    catalogs.listRegimenes(),
    catalogs.listUsosCfdi(),
    catalogs.listFormasPago(),
    catalogs.listMonedas(),
  ]);
  // The currencies most invoices use first (MXN, the default), then the rest of c_Moneda by key.
  const first = ['MXN', 'USD', 'EUR'];
  const rank = (clave: string) => (first.includes(clave) ? first.indexOf(clave) : first.length);
  const monedas = currencies
    .filter((m) => m.clave !== 'XXX')
    .sort((a, b) => rank(a.clave) - rank(b.clave) || a.clave.localeCompare(b.clave));
  return { regimenes, usos, formas, monedas };
}

/** What the receipts pages read and change through: the records' context and the portal a receipt's link points at. */
export async function receiptContext(): Promise<{ ctx: ReceiptContext; scope: Scope }> {
  const { ctx, scope } = await recordContext();
  return { ctx: { ...ctx, portalUrl: (await platform()).config.api.portalUrl }, scope };
}

/**
 * One page of a records list (customers, products) as its page shows it: the `q` search, the numbered window, the
 * rows and their count, read together with what else the page needs (`alongside`, e.g. a form's catalogs).
 */
export async function recordsListing<View, Extra = undefined>(
  searchParams: Promise<SearchParams>,
  records: {
    list: (
      ctx: RecordContext,
      scope: Scope,
      query: { limit: number; q?: string },
      offset: number,
    ) => Promise<ListAnswer<View>>;
    count: (ctx: RecordContext, scope: Scope, filter: { q?: string }) => Promise<RowCount>;
  },
  alongside?: () => Promise<Extra>,
) {
  await requirePermission('records.manage');
  const params = await searchParams;
  const q = param(params, 'q');
  const window = listWindow(params);
  const { t, locale } = await currentLocale();
  const { ctx, scope } = await recordContext();
  const filter = q ? { q } : {};
  const [{ data: rows }, count, extra] = await Promise.all([
    records.list(ctx, scope, { limit: window.limit, ...filter }, window.offset),
    records.count(ctx, scope, filter),
    alongside?.(),
  ]);
  return { params, q, window, t, locale, rows, count, extra: extra as Extra };
}
