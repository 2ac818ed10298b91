import type { Knex } from '@mikro-orm/postgresql';
import type { TableTarget } from './table-targets';

export interface SyncCounts {
  added: number;
  changed: number;
  removed: number;
}

/** Rows per staging INSERT: ~1 MB of JSON, few round trips, and a progress tick per chunk. */
const CHUNK_ROWS = 5000;

/**
 * Makes `target` hold exactly `records`: stages them in a temp table (multi-row INSERT from one jsonb
 * parameter), then deletes what is gone and upserts only rows that differ, so a re-import of the same
 * data writes nothing. Runs inside the caller's transaction.
 */
export async function syncTable(
  trx: Knex.Transaction,
  target: TableTarget,
  records: ReadonlyArray<Record<string, unknown>>,
  onStaged: (done: number) => void,
): Promise<SyncCounts> {
  const cols = target.columns.map((c) => c.name);
  const list = cols.join(', ');
  const keyMatch = target.keyColumns.map((k) => `s.${k} = t.${k}`).join(' and ');
  const scope = target.scope ? `t.${target.scope.column} = ? and` : '';
  const scopeBindings = target.scope ? [target.scope.value] : [];
  const valueCols = cols.filter((c) => !target.keyColumns.includes(c));

  await trx.raw(`create temp table catalog_stage (like ${target.table}) on commit drop`);
  const recordset = target.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  for (let start = 0; start < records.length; start += CHUNK_ROWS) {
    const chunk = records.slice(start, start + CHUNK_ROWS);
    await trx.raw(
      `insert into catalog_stage (${list}) select ${list} from jsonb_to_recordset(?::jsonb) as x(${recordset})`,
      [JSON.stringify(chunk)],
    );
    onStaged(start + chunk.length);
  }

  const removed = await trx.raw(
    `delete from ${target.table} t where ${scope} not exists (select 1 from catalog_stage s where ${keyMatch})`,
    scopeBindings,
  );
  // xmax = 0 only on freshly inserted tuples: the standard way to tell inserts from updates in one upsert.
  const upserted = await trx.raw(`
    with upserted as (
      insert into ${target.table} as t (${list}) select ${list} from catalog_stage
      on conflict (${target.keyColumns.join(', ')}) do update set ${valueCols.map((c) => `${c} = excluded.${c}`).join(', ')}
      where (${valueCols.map((c) => `t.${c}`).join(', ')}) is distinct from (${valueCols.map((c) => `excluded.${c}`).join(', ')})
      returning (xmax = 0) as inserted
    )
    select count(*) filter (where inserted)::int as added, count(*) filter (where not inserted)::int as changed from upserted`);
  await trx.raw('drop table catalog_stage');
  const counts = upserted.rows[0] as { added: number; changed: number };
  return { added: counts.added, changed: counts.changed, removed: removed.rowCount ?? 0 };
}
