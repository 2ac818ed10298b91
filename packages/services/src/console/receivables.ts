import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { AGING_BUCKETS, selectReceivablesAging, type AgingBucket } from '../documents/repository';

export { AGING_BUCKETS, type AgingBucket };

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
 * Outstanding balances per receiver RFC with their aging, largest first. Summed in the database: the rows stay
 * there however many invoices the account has.
 */
export async function receivablesAging(
  em: EntityManager,
  scope: Scope,
  asOf: Date = new Date(),
): Promise<ReceivableAging[]> {
  const rows = await selectReceivablesAging(em, scope, asOf);
  return rows.map((row) => ({
    rfc: row.rfc,
    name: row.name,
    invoices: Number(row.invoices),
    total: row.total,
    buckets: Object.fromEntries(AGING_BUCKETS.map((b) => [b.key, row[b.key]])) as Record<AgingBucket, string>,
  }));
}
