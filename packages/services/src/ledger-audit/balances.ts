import type { EntityManager } from '@cfdi/db';
import type { LedgerCheckpoint, LedgerViolation } from './report';
import { balanceTotals, balanceTotalsSinceCheckpoints, type BalanceRow } from './ledger-audit-repository';

export interface BalanceCheck {
  balancesChecked: number;
  entriesChecked: number;
  violations: LedgerViolation[];
  /** One per balance found clean: where the next incremental audit of it starts. */
  checkpoints: LedgerCheckpoint[];
}

/** Every balance against all its entries: balance = last balanceAfter = Σ delta. */
export async function checkAllBalances(em: EntityManager): Promise<BalanceCheck> {
  const rows = await balanceTotals(em);
  return judge(rows);
}

/**
 * Every balance against the entries written since its checkpoint (all of them for a balance that has none), each
 * new entry also checked against the one before it: the checkpoint's Σ plus the new deltas must be the balance.
 * Reads through `transactions_scope_idx` only what is new, so it stays cheap however long the ledger grows. One
 * statement: one snapshot, so an entry committed meanwhile is either in both the balance and the sum or in neither.
 */
export async function checkBalancesSinceCheckpoints(em: EntityManager): Promise<BalanceCheck> {
  const rows = await balanceTotalsSinceCheckpoints(em);
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
