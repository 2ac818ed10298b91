import type { EntityManager } from '@cfdi/db';

/** The first row the statement returns (a lookup by key, a write's `returning`), or undefined. */
export async function firstRow<Row>(
  em: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<Row | undefined> {
  const rows: Row[] = await em.execute(sql, params);
  return rows[0];
}

/** Whether the statement returns a row: an existence check, or a conditional write that took effect. */
export async function anyRow(em: EntityManager, sql: string, params: unknown[] = []): Promise<boolean> {
  const rows: unknown[] = await em.execute(sql, params);
  return rows.length > 0;
}
