import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { MEXICO_CITY } from '../time';

/**
 * Aging buckets of what customers still owe, by whole days since the invoice was stamped (its issue), counted in
 * Mexico City dates: 0–30, 31–60, 61–90 and over 90. `upTo` is the bucket's last day; the last bucket has none.
 */
export const AGING_BUCKETS = [
  { key: 'd0_30', upTo: 30 },
  { key: 'd31_60', upTo: 60 },
  { key: 'd61_90', upTo: 90 },
  { key: 'd90_plus', upTo: null },
] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number]['key'];

/**
 * One receiver RFC's outstanding balance, in pesos (decimal strings), per bucket and in all. An invoice in another
 * currency keeps its balance in that currency (`saldo_pendiente`); here it counts at the invoice's own TipoCambio,
 * the rate it was stamped with, since the service has no rate of the day.
 */
export interface ReceivableAging {
  rfc: string;
  name: string;
  invoices: number;
  total: string;
  buckets: Record<AgingBucket, string>;
}

/**
 * What counts as a receivable: a stamped PPD invoice (not a credit note) whose balance is not yet paid. A cancelled
 * invoice is owed by no one; one still `cancel_pending` is owed until the SAT says otherwise.
 */
export const OPEN_INVOICE = `type = 'invoice' and coalesce(kind, '') <> 'credit_note' and metodo_pago = 'PPD'
  and status in ('stamped', 'cancel_pending') and saldo_pendiente > 0`;

/** An open invoice's balance in MXN: its currency's balance times its TipoCambio (absent, 1, for MXN). */
const SALDO_MXN = `(saldo_pendiente * coalesce((input->>'tipoCambio')::numeric, 1))`;

/** Days from the issue (Mexico City date of `stamped_at`) to `asOf`'s Mexico City date. */
const DAYS_SINCE_ISSUE = `((?::timestamptz at time zone '${MEXICO_CITY}')::date - (stamped_at at time zone '${MEXICO_CITY}')::date)`;

/**
 * Outstanding balances per receiver RFC with their aging, largest first. Summed in the database: the rows stay
 * there however many invoices the account has.
 */
export async function receivablesAging(
  em: EntityManager,
  scope: Scope,
  asOf: Date = new Date(),
): Promise<ReceivableAging[]> {
  const params: unknown[] = [];
  const bucketColumns = AGING_BUCKETS.map((bucket, i) => {
    const lower = i === 0 ? null : AGING_BUCKETS[i - 1]!.upTo;
    const conditions = [
      ...(lower === null ? [] : [`${DAYS_SINCE_ISSUE} > ${lower}`]),
      ...(bucket.upTo === null ? [] : [`${DAYS_SINCE_ISSUE} <= ${bucket.upTo}`]),
    ];
    conditions.forEach(() => params.push(asOf.toISOString()));
    return `round(coalesce(sum(${SALDO_MXN}) filter (where ${conditions.join(' and ')}), 0), 2)::text as ${bucket.key}`;
  });
  const rows: (Record<AgingBucket, string> & {
    rfc: string;
    name: string;
    invoices: string;
    total: string;
  })[] = await em.execute(
    `select receiver->>'rfc' as rfc, max(receiver->>'name') as name, count(*)::text as invoices,
              round(sum(${SALDO_MXN}), 2)::text as total, ${bucketColumns.join(', ')}
         from documents
        where account_id = ? and livemode = ? and ${OPEN_INVOICE}${scope.merchantIds ? ' and merchant_id = any(?)' : ''}
        group by receiver->>'rfc'
        order by sum(${SALDO_MXN}) desc, receiver->>'rfc'
        limit 500`,
    [...params, scope.accountId, scope.livemode, ...(scope.merchantIds ? [scope.merchantIds] : [])],
  );
  return rows.map((row) => ({
    rfc: row.rfc,
    name: row.name,
    invoices: Number(row.invoices),
    total: row.total,
    buckets: Object.fromEntries(AGING_BUCKETS.map((b) => [b.key, row[b.key]])) as Record<AgingBucket, string>,
  }));
}
