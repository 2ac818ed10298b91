import type { EntityManager } from '@cfdi/db';
import { csvLine } from '../csv';
import type { LedgerScope } from '../ledger';
import { selectLedgerCsvBatch } from '../ledger-repository';
import { checkLedgerSearch, type LedgerSearch } from './ledger-search';

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
  checkLedgerSearch(search);
  yield csvLine(COLUMNS);
  let before: string | null = null;
  for (;;) {
    const rows = await selectLedgerCsvBatch(em, scope, search, before, BATCH);
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
