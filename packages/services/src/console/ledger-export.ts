import type { EntityManager } from '@cfdi/db';
import { csvLine } from '../csv';
import type { LedgerScope } from '../ledger';
import { MEXICO_CITY } from '../time';
import { ledgerConditions, type LedgerSearch } from './ledger-search';

const BATCH = 500;

const COLUMNS = [
  'id',
  'localTime',
  'type',
  'amountPesos',
  'balanceAfterPesos',
  'referenceType',
  'referenceId',
  'uuid',
  'serieFolio',
  'note',
];

/**
 * The ledger for people: amounts in pesos, times as Mexico City's wall clock, and the UUID and serie-folio of the
 * document a movement refers to. Streamed line by line, read in keyset batches by `seq`, newest first.
 */
export async function* ledgerCsvInPesos(
  em: EntityManager,
  scope: LedgerScope,
  search: LedgerSearch,
): AsyncGenerator<string> {
  const { where, params } = ledgerConditions(scope, search);
  yield csvLine(COLUMNS);
  let before: string | null = null;
  for (;;) {
    const rows: (Record<string, string | null> & { seq: string })[] = await em.execute(
      `select t.seq::text as seq, t.id, t.type, t.reference_type, t.reference_id, t.note,
              to_char(t.created_at at time zone '${MEXICO_CITY}', 'YYYY-MM-DD HH24:MI:SS') as local_time,
              (t.delta_centavos / 100.0)::numeric(20, 2)::text as amount,
              (t.balance_after_centavos / 100.0)::numeric(20, 2)::text as balance_after,
              d.uuid, d.serie || '-' || coalesce(d.folio_text, d.folio::text) as serie_folio
         from (select * from transactions where ${where}${before === null ? '' : ' and seq < ?'}
                order by seq desc limit ?) t
         left join documents d on d.id = t.reference_id and d.account_id = t.account_id
        order by t.seq desc`,
      [...params, ...(before === null ? [] : [before]), BATCH],
    );
    for (const r of rows)
      yield csvLine([
        r.id,
        r.local_time,
        r.type,
        r.amount,
        r.balance_after,
        r.reference_type,
        r.reference_id,
        r.uuid,
        r.serie_folio,
        r.note,
      ]);
    if (rows.length < BATCH) return;
    before = rows[rows.length - 1]!.seq;
  }
}
