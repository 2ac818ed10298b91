// bench/scale: the REST read paths' SQL against one account of N documents (other accounts present).
// Usage: SCALE_DATABASE_URL=postgres://postgres@127.0.0.1:5432/cfdi_h_scale npx tsx bench/scale/run.ts [documents=10000] [runs=20]
// The database is kept between runs: it is migrated (new migrations apply to the seeded rows, as in production) and
// seeded once per size (an account named "Bench scale N"), so a size is seeded once and measured before and after a
// change. Each path runs the services function its REST handler calls (the SQL the API runs, without HTTP), 3
// warm-ups then `runs` sequential calls; prints p50/p95 per path and EXPLAIN (ANALYZE, BUFFERS) of every statement
// over 50 ms.
import { randomBytes } from 'node:crypto';
import { loadConfig } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate, type EntityManager } from '@cfdi/db';
import {
  adjustBalance,
  auditLedger,
  createAccount,
  recordLedgerAudit,
  listDocuments,
  listTransactions,
  listUsage,
  relatedDocuments,
  retrieveDocument,
  receivablesAging,
  searchDocuments,
  type PageRequest,
  type Scope,
} from '@cfdi/services';
import { seedAccount } from './seed';

const [documents, runs] = [Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 20)];
const databaseUrl = process.env.SCALE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/cfdi_bench_scale';
const log = (line: string) => process.stderr.write(`[scale] ${line}\n`);
const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const SLOW_MS = 50;

/** The account of this size, seeded (with two smaller neighbours) when the database does not have it yet. */
async function benchAccount(em: EntityManager): Promise<string> {
  const name = `Bench scale ${documents}`;
  const found: { id: string }[] = await em.execute('select id from accounts where name = ?', [name]);
  if (found[0]) return found[0].id;
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LIVE_ENABLED: 'false' });
  const started = Date.now();
  let main = '';
  for (const [accountName, size] of [
    [`${name} neighbour A`, Math.ceil(documents / 10)],
    [name, documents],
    [`${name} neighbour B`, Math.ceil(documents / 10)],
  ] as const) {
    const { accountId } = await createAccount(em, config, { name: accountName });
    const merchantId = `mch_scale${randomBytes(6).toString('hex')}`;
    await em.execute(
      `insert into merchants (id, account_id, livemode, rfc, legal_name, regimen_fiscal, zip, serie)
       values (?, ?, false, 'EKU9003173C9', 'ESCUELA KEMPER URGATE', '601', '42501', 'A')`,
      [merchantId, accountId],
    );
    // The bench account has two ledger entries per document (the targets' 2M at 1M documents).
    await seedAccount(
      em,
      accountId,
      merchantId,
      size,
      accountName === name ? { ledgerEntries: 2 * size } : {},
    );
    log(`seeded ${accountName}: ${size} documents (${Math.round((Date.now() - started) / 1000)} s)`);
    if (accountName === name) main = accountId;
  }
  for (const table of ['documents', 'transactions', 'monthly_usage'])
    await em.execute(`vacuum analyze ${table}`);
  return main;
}

interface Statement {
  sql: string;
  params: unknown[];
  ms: number;
}

/** Records every statement the services run through `em`, with its time, to explain the slow ones. */
function recordStatements(em: EntityManager): Statement[] {
  const statements: Statement[] = [];
  const execute = em.execute.bind(em) as (sql: string, params?: unknown[]) => Promise<unknown>;
  (em as unknown as { execute: typeof execute }).execute = async (sql: string, params: unknown[] = []) => {
    const start = performance.now();
    const result = await execute(sql, params);
    statements.push({ sql, params, ms: performance.now() - start });
    return result;
  };
  return statements;
}

async function main() {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  const setup = orm.em.fork();
  const accountId = await benchAccount(setup);
  const scope: Scope = { accountId, livemode: false, keyId: 'key_bench', merchantIds: null };
  const pick = async (sql: string) =>
    ((await setup.execute(sql, [accountId])) as Record<string, string>[])[0]!;
  const sample = await pick(
    `select d.id, d.uuid, d.receiver->>'rfc' as rfc from documents d where account_id = ? and type = 'invoice' and status = 'stamped'
      and exists (select 1 from documents p where p.invoice_id = d.id) order by id desc offset ${Math.min(500, Math.floor(documents / 50))} limit 1`,
  );
  // Page 100 of 100 rows, or half-way down at small sizes.
  const deepOffset = Math.min(10_000, Math.floor(documents / 2));
  const deep = await pick(
    `select id from documents where account_id = ? and type = 'invoice' order by id desc offset ${deepOffset} limit 1`,
  );
  const deepTxn = await pick(
    `select id from transactions where account_id = ? order by seq desc offset ${deepOffset} limit 1`,
  );
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
  const page: PageRequest = { limit: 100 };
  const invoices = (em: EntityManager, filters: Parameters<typeof listDocuments>[3], p = page) =>
    listDocuments(em, scope, 'invoice', filters, p);
  const paths: [string, (em: EntityManager) => Promise<unknown>][] = [
    ['GET /v1/invoices?limit=100', (em) => invoices(em, {})],
    ['invoices status=stamped', (em) => invoices(em, { status: 'stamped' })],
    ['invoices kind=credit_note', (em) => invoices(em, { kind: 'credit_note' })],
    ['invoices metodoPago=PPD', (em) => invoices(em, { metodoPago: 'PPD' })],
    ['invoices status=cancel_pending (none)', (em) => invoices(em, { status: 'cancel_pending' })],
    ['invoices created one day', (em) => invoices(em, { createdFrom: day(61), createdTo: day(60) })],
    ['invoices created one month', (em) => invoices(em, { createdFrom: day(120), createdTo: day(90) })],
    ['invoices uuid=', (em) => invoices(em, { uuid: sample.uuid! })],
    [
      `invoices starting_after row ${deepOffset}`,
      (em) => invoices(em, {}, { ...page, startingAfter: deep.id! }),
    ],
    ['GET /v1/invoices/{id}', (em) => retrieveDocument(em, scope, sample.id!, 'invoice')],
    ['GET /v1/payments?limit=100', (em) => listDocuments(em, scope, 'payment', {}, page)],
    ['transactions first page', (em) => listTransactions(em, scope, page)],
    [
      `transactions starting_after row ${deepOffset}`,
      (em) => listTransactions(em, scope, { ...page, startingAfter: deepTxn.id }),
    ],
    ['transactions type=recharge', (em) => listTransactions(em, scope, { ...page, type: 'recharge' })],
    ['GET /v1/billing/usage', (em) => listUsage(em, scope, 12)],
    [
      'document detail: related documents',
      async (em) => relatedDocuments(em, scope, await retrieveDocument(em, scope, sample.id!, 'invoice')),
    ],
    [
      'search: receiver name substring',
      (em) => searchDocuments(em, scope, { receiver: 'distribuidora 517 sa' }),
    ],
    ['search: receiver RFC, no match', (em) => searchDocuments(em, scope, { receiver: 'ZZZ010101ZZ9' })],
    ['search: receiver RFC', (em) => searchDocuments(em, scope, { receiver: sample.rfc! })],
    ['search: whole UUID', (em) => searchDocuments(em, scope, { uuid: sample.uuid! })],
    [
      'search: UUID first 8 characters',
      (em) => searchDocuments(em, scope, { uuid: sample.uuid!.slice(0, 8) }),
    ],
    ['receivables aging', (em) => receivablesAging(em, scope, new Date())],
  ];
  const lines = ['| path | p50 ms | p95 ms |', '|---|---|---|'];
  const slow: Statement[] = [];
  for (const [name, run] of paths) {
    const times: number[] = [];
    for (let i = 0; i < runs + 3; i += 1) {
      const em = orm.em.fork();
      const statements = recordStatements(em);
      const start = performance.now();
      await run(em);
      if (i >= 3) times.push(performance.now() - start);
      if (i === runs + 2) slow.push(...statements.filter((s) => s.ms > SLOW_MS));
    }
    const line = `| ${name} | ${percentile(times, 0.5).toFixed(1)} | ${percentile(times, 0.95).toFixed(1)} |`;
    lines.push(line);
    log(line);
  }
  lines.push(...(await ledgerAuditTimings(orm.em, accountId)));
  for (const statement of slow) {
    const plan = (await setup.execute(
      `explain (analyze, buffers) ${statement.sql}`,
      statement.params as unknown[],
    )) as { 'QUERY PLAN': string }[];
    process.stdout.write(
      `\n-- ${statement.ms.toFixed(1)} ms: ${statement.sql.replace(/\s+/g, ' ')}\n-- ${JSON.stringify(statement.params)}\n` +
        plan.map((row) => row['QUERY PLAN']).join('\n') +
        '\n',
    );
  }
  process.stdout.write(`\n${documents} documents, ${runs} runs per path\n${lines.join('\n')}\n`);
  await orm.close();
}

/**
 * The scheduled ledger audit over the whole database: a full run (recorded, which leaves every balance's checkpoint),
 * an incremental one right after it, and one after 1,000 new entries on the bench account.
 */
async function ledgerAuditTimings(root: EntityManager, accountId: string): Promise<string[]> {
  const [count] = await root
    .fork()
    .execute<{ entries: string }[]>('select count(*) as entries from transactions');
  const timed = async (mode: 'full' | 'incremental') => {
    const start = performance.now();
    const audit = await auditLedger(root.fork(), { mode });
    const ms = performance.now() - start;
    await recordLedgerAudit(root.fork(), audit);
    const line = `| ledger audit, ${mode} (${audit.report.entriesChecked} entries read, ${audit.report.violations.length} violations) | ${ms.toFixed(1)} | |`;
    log(line);
    return line;
  };
  const lines = [await timed('full'), await timed('incremental')];
  for (let i = 0; i < 1000; i += 1)
    await adjustBalance(
      root.fork(),
      { accountId, livemode: false },
      { type: 'recharge', deltaCentavos: 1, note: 'bench' },
    );
  lines.push(await timed('incremental'));
  log(`ledger: ${count!.entries} entries in all`);
  return lines;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
