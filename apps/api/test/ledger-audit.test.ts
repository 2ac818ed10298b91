import {
  adjustBalance,
  auditLedger,
  chooseLedgerAuditMode,
  recordLedgerAudit,
  refundReservation,
  reserveTimbre,
  type LedgerAudit,
} from '@cfdi/services';
import type { ApiHarness } from './harness';
import { idempotencyKey, invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

let stack: StackHarness;
let api: ApiHarness;
beforeAll(async () => {
  stack = await startStack();
  api = stack.api;
});
afterAll(async () => stack.close());

const db = () => api.orm.em.fork();
const rulesOf = (audit: LedgerAudit, accountId: string) =>
  audit.report.violations
    .filter((v) => v.accountId === accountId)
    .map((v) => v.rule)
    .sort();
const checkpointOf = async (accountId: string) => {
  const rows: { seq: string; balance_after_centavos: string; sum_centavos: string }[] = await db().execute(
    'select seq, balance_after_centavos, sum_centavos from ledger_audit_checkpoints where account_id = ? and livemode = false',
    [accountId],
  );
  return rows[0] ?? null;
};
const lastSeqOf = async (accountId: string) => {
  const rows: { seq: string }[] = await db().execute(
    'select max(seq) as seq from transactions where account_id = ? and livemode = false',
    [accountId],
  );
  return String(rows[0]!.seq);
};

it('a recorded clean audit leaves a checkpoint per balance, and the next incremental audit starts there', async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  await reserveTimbre(db(), api.config, scope, { type: 'invoice', id: 'a' });
  const full = await auditLedger(db(), { mode: 'full' });
  expect(full.report.mode).toBe('full');
  expect(rulesOf(full, accountId)).toEqual([]);
  await recordLedgerAudit(db(), full);
  expect(await checkpointOf(accountId)).toEqual({
    seq: await lastSeqOf(accountId),
    balance_after_centavos: '99900',
    sum_centavos: '99900',
  });

  // Two more entries: the incremental audit reads them from the checkpoint and moves it past them.
  const second = await reserveTimbre(db(), api.config, scope, { type: 'invoice', id: 'b' });
  await refundReservation(db(), scope, second.id);
  const incremental = await auditLedger(db(), { mode: 'incremental' });
  expect(incremental.report.mode).toBe('incremental');
  expect(rulesOf(incremental, accountId)).toEqual([]);
  // It skipped (at least) this account's two entries before its checkpoint.
  const [count] = await db().execute<{ total: string }[]>('select count(*) as total from transactions');
  expect(incremental.report.entriesChecked).toBeLessThanOrEqual(Number(count!.total) - 2);
  expect(incremental.checkpoints.find((c) => c.accountId === accountId && !c.livemode)).toEqual({
    accountId,
    livemode: false,
    seq: await lastSeqOf(accountId),
    balanceAfterCentavos: '99900',
    sumCentavos: '99900',
  });
  await recordLedgerAudit(db(), incremental);
  expect((await checkpointOf(accountId))?.seq).toBe(await lastSeqOf(accountId));
  // A scheduled run right after a full audit is incremental.
  expect(await chooseLedgerAuditMode(db())).toBe('incremental');
});

it('an incremental audit finds a balance changed behind the ledger and keeps its checkpoint until it is fixed', async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  await recordLedgerAudit(db(), await auditLedger(db(), { mode: 'full' }));
  const before = await checkpointOf(accountId);
  await reserveTimbre(db(), api.config, scope, { type: 'invoice', id: 'a' });
  await db().execute(
    'update balances set balance_centavos = balance_centavos + 1 where account_id = ? and livemode = false',
    [accountId],
  );
  const found = await auditLedger(db(), { mode: 'incremental' });
  expect(rulesOf(found, accountId)).toEqual(['balance_matches_last_entry', 'balance_matches_sum']);
  await recordLedgerAudit(db(), found);
  expect(await checkpointOf(accountId)).toEqual(before);
  // Still reported on the next run, then clean once the balance is right again.
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toHaveLength(2);
  await db().execute(
    'update balances set balance_centavos = balance_centavos - 1 where account_id = ? and livemode = false',
    [accountId],
  );
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([]);
});

it('an incremental audit checks each new entry against the one before it', async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  await recordLedgerAudit(db(), await auditLedger(db(), { mode: 'full' }));
  const first = await adjustBalance(db(), scope, { type: 'adjustment', deltaCentavos: -300, note: 'first' });
  await adjustBalance(db(), scope, { type: 'adjustment', deltaCentavos: 200, note: 'second' });
  // The first new entry claims a balance it never left; the last one and the sum still agree with the balance.
  await db().execute(
    'update transactions set balance_after_centavos = balance_after_centavos + 7 where id = ?',
    [first.id],
  );
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([
    'entry_follows_previous',
  ]);
  await db().execute(
    'update transactions set balance_after_centavos = balance_after_centavos - 7 where id = ?',
    [first.id],
  );
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([]);
});

it('an old entry rewritten before the checkpoint escapes the incremental audit and is caught by the full one', async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  const old = await adjustBalance(db(), scope, { type: 'adjustment', deltaCentavos: -500, note: 'old' });
  await recordLedgerAudit(db(), await auditLedger(db(), { mode: 'full' }));
  await db().execute('update transactions set delta_centavos = delta_centavos - 1 where id = ?', [old.id]);
  try {
    expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([]);
    expect(rulesOf(await auditLedger(db(), { mode: 'full' }), accountId)).toEqual(['balance_matches_sum']);
  } finally {
    await db().execute('update transactions set delta_centavos = delta_centavos + 1 where id = ?', [old.id]);
  }
});

it("an incremental audit checks new refunds and this month's usage", async () => {
  const { accountId } = await api.newAccount();
  const scope = { accountId, livemode: false };
  await recordLedgerAudit(db(), await auditLedger(db(), { mode: 'full' }));
  const consume = await reserveTimbre(db(), api.config, scope, { type: 'invoice', id: 'a' });
  const refund = await refundReservation(db(), scope, consume.id);
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([]);
  await db().execute('update monthly_usage set timbres = timbres + 1 where account_id = ?', [accountId]);
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([
    'usage_matches_ledger',
  ]);
  await db().execute('update monthly_usage set timbres = timbres - 1 where account_id = ?', [accountId]);
  // A refund that returns more than its consume took (the balance moved with it, so only the pairing is wrong).
  await db().execute('update transactions set delta_centavos = delta_centavos + 1 where id = ?', [refund.id]);
  await db().execute(
    'update transactions set balance_after_centavos = balance_after_centavos + 1 where account_id = ? and seq >= (select seq from transactions where id = ?)',
    [accountId, refund.id],
  );
  await db().execute(
    'update balances set balance_centavos = balance_centavos + 1 where account_id = ? and livemode = false',
    [accountId],
  );
  await db().execute('update monthly_usage set spent_centavos = spent_centavos - 1 where account_id = ?', [
    accountId,
  ]);
  expect(rulesOf(await auditLedger(db(), { mode: 'incremental' }), accountId)).toEqual([
    'refund_matches_consume',
  ]);
});

it("an incremental audit checks the outcome of documents reserved in the last 48 hours; older ones are the full audit's", async () => {
  const account = await stampingAccount(stack);
  const stamp = async () => {
    const res = await api.request('POST', '/v1/invoices', {
      key: account.testKey,
      headers: { 'idempotency-key': idempotencyKey() },
      body: invoiceBody(account.merchantId),
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const [old, recent] = [await stamp(), await stamp()];
  await recordLedgerAudit(db(), await auditLedger(db(), { mode: 'full' }));
  // The old one (and everything before it in the ledger) was reserved three days ago; then both claim a refund the
  // ledger never made.
  await db().execute(
    `update transactions set created_at = created_at - interval '3 days'
      where account_id = ? and seq <= (select t.seq from transactions t join documents d on d.reservation_id = t.id where d.id = ?)`,
    [account.accountId, old],
  );
  await db().execute("update documents set reservation_state = 'refunded' where id in (?, ?)", [recent, old]);
  try {
    const outcomes = (audit: LedgerAudit) =>
      audit.report.violations
        .filter((v) => v.rule === 'outcome_matches_ledger' && v.accountId === account.accountId)
        .map((v) => v.detail.split(':')[0])
        .sort();
    expect(outcomes(await auditLedger(db(), { mode: 'incremental' }))).toEqual([recent]);
    expect(outcomes(await auditLedger(db(), { mode: 'full' }))).toEqual([recent, old].sort());
  } finally {
    await db().execute("update documents set reservation_state = 'confirmed' where id in (?, ?)", [
      recent,
      old,
    ]);
  }
});
