import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createOrm, type Orm } from '@cfdi/db';

/**
 * Short waits of the drill's and the replica run's stacks, so they settle in minutes: an answer after 8 s at most,
 * reconciliation lookups from 3 s (at most 20 s apart), cancellation polls from 5 s.
 */
export const QUICK_SETTLEMENT_ENV = {
  STAMP_WAIT_MS: '8000',
  RECONCILIATION_FIRST_LOOKUP_SECONDS: '3',
  RECONCILIATION_MAX_LOOKUP_SECONDS: '20',
  CANCELLATION_FIRST_POLL_SECONDS: '5',
};

/** What the drill and the replica run share in their options. */
export interface RunOptions {
  concurrency: number;
  settleTimeoutSeconds: number;
  log: (line: string) => void;
}

/** What the drill and the replica run share in their reports: what they issued and got, and the verdict. */
export interface RunReport {
  issued: { invoices: number; payments: number; cancellations: number };
  /** `<what> <status>`: how many answers of that status (`invoice 201`: 118). */
  answers: Record<string, number>;
  documents: Record<string, number>;
  /** Each check's offending ids (empty = holds). */
  violations: Record<string, string[]>;
}

export interface Settlement {
  stamping: number;
  reconciling: number;
  cancelling: number;
}

/** Work not yet settled: documents stamping or awaiting reconciliation, cancellation requests awaiting the PAC. */
export async function unsettled(orm: Orm): Promise<Settlement> {
  const [row] = await orm.em.fork().execute(
    `select count(*) filter (where status = 'stamping')::int as stamping,
            count(*) filter (where needs_reconciliation)::int as reconciling,
            count(*) filter (where status = 'stamped' and cancellation->>'status' = 'pending')::int as cancelling
       from documents`,
  );
  return row as Settlement;
}

/**
 * The drill's verdict, each check a list of offending ids (empty = holds): nothing stuck, no UUID twice, no twin
 * failed as duplicate_cfdi, every
 * stamp the PAC made held by a document, one consume per document and one refund per failed one (none for the
 * others), no consume reversed twice, balance = Σ deltas, and `cfdi ledger verify` clean.
 */
export async function verifySettlement(
  orm: Orm,
  pacDatabaseUrl: string,
  databaseUrl: string,
): Promise<Record<string, string[]>> {
  const em = orm.em.fork();
  const ids = async (sql: string) => ((await em.execute(sql)) as { id: string }[]).map((r) => r.id);
  const pac = await createOrm(pacDatabaseUrl);
  let pacUuids: string[];
  try {
    pacUuids = ((await pac.em.fork().execute('select uuid from stamps')) as { uuid: string }[]).map((r) =>
      r.uuid.toUpperCase(),
    );
  } finally {
    await pac.close();
  }
  const held = new Set(await ids('select uuid as id from documents where uuid is not null'));
  const cli = spawnSync(
    process.execPath,
    [path.resolve(__dirname, '../../../cli/bin/cfdi.js'), 'ledger', 'verify', '--json'],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  return {
    stuck: await ids(
      `select id from documents where status = 'stamping' or needs_reconciliation or (status = 'stamped' and cancellation->>'status' = 'pending')`,
    ),
    duplicateUuids: await ids(
      'select uuid as id from documents where uuid is not null group by uuid having count(*) > 1',
    ),
    // Issue #23 defect 2: twin documents (same body and folio in the same second) must each get their own CFDI.
    duplicateCfdiFailures: await ids(`select id from documents where sat_code = 'duplicate_cfdi'`),
    pacStampsWithoutDocument: pacUuids.filter((uuid) => !held.has(uuid)),
    consumesPerDocument: await ids(`
      select d.id from documents d
       where (select count(*) from transactions c where c.type = 'consume' and c.reference_type = d.type and c.reference_id = d.id) <> 1`),
    refundsPerDocument: await ids(`
      select d.id from documents d
       where (select count(*) from transactions r join transactions c on r.reversal_of = c.id
               where r.type = 'refund' and c.reference_type = d.type and c.reference_id = d.id) <> case when d.status = 'stamp_failed' then 1 else 0 end`),
    consumesReversedTwice: await ids(
      `select reversal_of as id from transactions where reversal_of is not null group by reversal_of having count(*) > 1`,
    ),
    balanceNotSumOfDeltas: await ids(`
      select b.account_id as id from balances b
       where b.balance_centavos <> (select coalesce(sum(t.delta_centavos), 0) from transactions t where t.account_id = b.account_id and t.livemode = b.livemode)`),
    ledgerVerify: cli.status === 0 ? [] : [`exit ${cli.status}: ${(cli.stdout + cli.stderr).slice(0, 2000)}`],
  };
}

/** Waits until nothing is left to settle, or `timeoutSeconds` (logged, not thrown: the verdict names what is stuck). */
export async function awaitSettlement(
  orm: Orm,
  options: { timeoutSeconds: number; pollMs: number; log: (line: string) => void },
): Promise<{ seconds: number }> {
  const started = Date.now();
  let left = await unsettled(orm);
  while (left.stamping + left.reconciling + left.cancelling > 0) {
    if (Date.now() - started > options.timeoutSeconds * 1000) {
      options.log(`not settled after ${options.timeoutSeconds} s: ${JSON.stringify(left)}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    left = await unsettled(orm);
  }
  return { seconds: (Date.now() - started) / 1000 };
}

/** Documents by `<type> <status>` (`invoice stamped`: 118), the run report's tally. */
export async function documentCounts(orm: Orm): Promise<Record<string, number>> {
  const rows = (await orm.em
    .fork()
    .execute('select type, status, count(*)::int as n from documents group by type, status')) as {
    type: string;
    status: string;
    n: number;
  }[];
  return Object.fromEntries(rows.map((row) => [`${row.type} ${row.status}`, row.n]));
}
