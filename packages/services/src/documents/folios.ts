import type { EntityManager } from '@cfdi/db';

/**
 * Next folio of a (merchant, serie): one upsert that increments under the row lock, so folios are unique and
 * never reused (a rolled-back creation leaves a gap, which the SAT allows).
 */
export async function nextFolio(em: EntityManager, merchantId: string, serie: string): Promise<number> {
  const rows: { last_folio: string }[] = await em.execute(
    `insert into folio_sequences (merchant_id, serie, last_folio) values (?, ?, 1)
     on conflict (merchant_id, serie) do update set last_folio = folio_sequences.last_folio + 1
     returning last_folio`,
    [merchantId, serie],
  );
  return Number(rows[0]!.last_folio);
}
