import type { EntityManager } from '@cfdi/db';
import type { LedgerCheckpoint, LedgerViolation } from './report';

export interface BalanceCheck {
  balancesChecked: number;
  entriesChecked: number;
  violations: LedgerViolation[];
  /** One per balance found clean: where the next incremental audit of it starts. */
  checkpoints: LedgerCheckpoint[];
}

interface BalanceRow {
  account_id: string;
  livemode: boolean;
  balance: string;
  /** Entries read, their Σ delta, the last one's seq and balanceAfter (null when none were read). */
  entries: number;
  total: string;
  last_seq: string | null;
  last_after: string | null;
  /** What the balance was where the read began (a checkpoint, or nothing before the first entry). */
  from_seq: string;
  from_after: string;
  from_sum: string;
  /** Entries whose balanceAfter is not the previous one's plus their delta (incremental audits only). */
  breaks: number;
}

/** Every balance against all its entries: balance = last balanceAfter = Σ delta. */
export async function checkAllBalances(em: EntityManager): Promise<BalanceCheck> {
  const rows: BalanceRow[] = await em.execute(
    `select b.account_id, b.livemode, b.balance_centavos as balance, n.entries, n.total, n.last_seq, n.last_after,
            0 as from_seq, 0 as from_after, 0 as from_sum, 0 as breaks
       from balances b
       cross join lateral (select count(*)::int as entries, coalesce(sum(delta_centavos), 0) as total,
                                  max(seq) as last_seq,
                                  (array_agg(balance_after_centavos order by seq desc))[1] as last_after
                             from transactions t where t.account_id = b.account_id and t.livemode = b.livemode) n`,
  );
  return judge(rows);
}

/**
 * Every balance against the entries written since its checkpoint (all of them for a balance that has none), each
 * new entry also checked against the one before it: the checkpoint's Σ plus the new deltas must be the balance.
 * Reads through `transactions_scope_idx` only what is new, so it stays cheap however long the ledger grows. One
 * statement: one snapshot, so an entry committed meanwhile is either in both the balance and the sum or in neither.
 */
export async function checkBalancesSinceCheckpoints(em: EntityManager): Promise<BalanceCheck> {
  const rows: BalanceRow[] = await em.execute(
    `select b.account_id, b.livemode, b.balance_centavos as balance, n.entries, n.total, n.last_seq, n.last_after,
            coalesce(k.seq, 0) as from_seq, coalesce(k.balance_after_centavos, 0) as from_after,
            coalesce(k.sum_centavos, 0) as from_sum, n.breaks
       from balances b
       left join ledger_audit_checkpoints k on k.account_id = b.account_id and k.livemode = b.livemode
       cross join lateral (
         select count(*)::int as entries, coalesce(sum(x.delta_centavos), 0) as total, max(x.seq) as last_seq,
                (array_agg(x.balance_after_centavos order by x.seq desc))[1] as last_after,
                (count(*) filter (where x.balance_after_centavos <> x.before + x.delta_centavos))::int as breaks
           from (select t.seq, t.delta_centavos, t.balance_after_centavos,
                        coalesce(lag(t.balance_after_centavos) over (order by t.seq), k.balance_after_centavos, 0) as before
                   from transactions t
                  where t.account_id = b.account_id and t.livemode = b.livemode and t.seq > coalesce(k.seq, 0)) x
       ) n`,
  );
  return judge(rows);
}

function judge(rows: BalanceRow[]): BalanceCheck {
  const violations: LedgerViolation[] = [];
  const checkpoints: LedgerCheckpoint[] = [];
  let entriesChecked = 0;
  for (const row of rows) {
    entriesChecked += row.entries;
    const scope = { accountId: row.account_id, livemode: row.livemode };
    const lastAfter = BigInt(row.last_after ?? row.from_after);
    const sum = BigInt(row.from_sum) + BigInt(row.total);
    const balance = BigInt(row.balance);
    const found: LedgerViolation[] = [];
    if (balance !== lastAfter)
      found.push({
        ...scope,
        rule: 'balance_matches_last_entry',
        detail: `balance ${balance} ≠ last balanceAfter ${lastAfter}`,
      });
    if (balance !== sum)
      found.push({
        ...scope,
        rule: 'balance_matches_sum',
        detail: `balance ${balance} ≠ sum of deltas ${sum}`,
      });
    if (row.breaks > 0)
      found.push({
        ...scope,
        rule: 'entry_follows_previous',
        detail: `${row.breaks} entr(ies) after seq ${row.from_seq} whose balanceAfter is not the previous one's plus their delta`,
      });
    violations.push(...found);
    if (!found.length)
      checkpoints.push({
        ...scope,
        seq: String(row.last_seq ?? row.from_seq),
        balanceAfterCentavos: String(lastAfter),
        sumCentavos: String(sum),
      });
  }
  return { balancesChecked: rows.length, entriesChecked, violations, checkpoints };
}
