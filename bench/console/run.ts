// bench/console: how long the console's main pages take server-side with 10,000 documents (and as many ledger
// transactions) in one account.
// Usage: npx tsx bench/console/run.ts [documents=10000] [requestsPerPage=30]
// Runs `next build` first when the console has no build (or BENCH_BUILD=1). Seeds a fresh database cfdi_bench_console_<random> in bulk SQL (dropped at the end), starts the built console
// (`next start`) on it, signs a finance user in through a server-side session, and times each page's full response
// (request sent → last byte, one request at a time after 3 warm-ups) from this process on 127.0.0.1.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { freePort, waitForHttp } from '@cfdi/devstack';
import { dropDatabase } from '@cfdi/pac-sandbox';
import { createAccount, createConsoleSession, createConsoleUser, generatePassword } from '@cfdi/services';

const [documents, requestsPerPage] = [Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 30)];
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const percentile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

const adminUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
adminUrl.pathname = `/cfdi_bench_console_${randomBytes(4).toString('hex')}`;
const databaseUrl = adminUrl.toString();
// Test mode only: no live CSD keys to encrypt, so no MASTER_KEY needed.
const env = { ...process.env, DATABASE_URL: databaseUrl, LIVE_ENABLED: 'false' };

/** One account, one merchant, `documents` stamped invoices over the last 12 months with one consume each. */
async function seed() {
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  const em = orm.em.fork();
  const config = loadConfig(env);
  const { accountId } = await createAccount(em, config, { name: 'Bench console' });
  const merchantId = `mch_bench${randomBytes(6).toString('hex')}`;
  await em.execute(
    `insert into merchants (id, account_id, livemode, rfc, legal_name, regimen_fiscal, zip, serie) values (?, ?, false, 'EKU9003173C9', 'ESCUELA KEMPER URGATE', '601', '42501', 'A')`,
    [merchantId, accountId],
  );
  const started = Date.now();
  // Ids sort by creation time like newId's: a fixed prefix and the row number, zero-padded.
  await em.execute(
    `
    insert into documents (id, account_id, livemode, merchant_id, type, kind, status, serie, folio, subtotal, total, receiver, input, uuid, stamped_at,
                           reservation_state, files_status, created_at, updated_at)
    select 'inv_bench' || lpad(n::text, 8, '0'), ?, false, ?, 'invoice', 'nominal', 'stamped', 'A', n, 1000 + n % 500, (1000 + n % 500) * 1.16,
           jsonb_build_object('rfc', 'XAX' || lpad((n % 997)::text, 6, '0') || 'AB1', 'name', 'CLIENTE ' || (n % 997) || ' SA DE CV', 'zip', '86991', 'regimenFiscal', '601'),
           -- one line, as stored by the API: the detail page runs the tax engine on it
           jsonb_build_object('items', jsonb_build_array(jsonb_build_object('productCode', '43211503', 'unitCode', 'H87',
             'description', 'Servidor', 'quantity', 1, 'unitPrice', (1000 + n % 500) * 1.16))),
           upper(gen_random_uuid()::text), t, 'confirmed', 'ready', t, t
      from generate_series(1, ?) n, lateral (select now() - ((? - n) * interval '1 minute') * (365 * 24 * 60 / ?::float) as t) at`,
    [accountId, merchantId, documents, documents, documents],
  );
  await em.execute(
    `
    insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos, reference_type, reference_id, created_at)
    select 'txn_bench' || lpad(n::text, 8, '0'), ?, false, 'consume', -100, 100000000 - 100 * n, 'invoice', 'inv_bench' || lpad(n::text, 8, '0'), d.created_at
      from generate_series(1, ?) n join documents d on d.id = 'inv_bench' || lpad(n::text, 8, '0')`,
    [accountId, documents],
  );
  await em.execute('analyze documents; analyze transactions');
  log(`seeded ${documents} documents and transactions in ${Date.now() - started} ms`);
  const password = generatePassword();
  const user = await createConsoleUser(em, {
    email: 'bench@example.mx',
    password,
    role: 'finance',
    accountId,
  });
  const session = await createConsoleSession(em, user.id, { ip: '127.0.0.1', userAgent: 'bench' });
  const [sample] = (await em.execute(
    `select id, uuid, receiver->>'rfc' as rfc from documents where account_id = ? order by id limit 1 offset ?`,
    [accountId, Math.floor(documents / 2)],
  )) as { id: string; uuid: string; rfc: string }[];
  await orm.close();
  return { token: session.token, sample: sample! };
}

async function main() {
  const consoleDir = path.resolve(__dirname, '../../apps/console');
  // Production mode: the pages as `next build` compiles them, served by `next start` (through server.js).
  if (process.env.BENCH_BUILD === '1' || !fs.existsSync(path.join(consoleDir, '.next', 'BUILD_ID'))) {
    log('next build');
    execFileSync(process.execPath, [require.resolve('next/dist/bin/next'), 'build'], {
      cwd: consoleDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const { token, sample } = await seed();
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(consoleDir, 'server.js'), '-p', String(port), '-H', '127.0.0.1'],
    {
      cwd: consoleDir,
      env: { ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/login`, 60_000);
    const pages: [string, string][] = [
      ['overview', '/'],
      ['documents, no filter', '/documents'],
      ['documents by UUID', `/documents?uuid=${sample.uuid.toLowerCase()}`],
      ['documents by receiver RFC', `/documents?receiver=${sample.rfc}`],
      ['documents by receiver name', '/documents?receiver=cliente%20517%20sa'],
      ['document detail', `/documents/${sample.id}`],
      ['ledger', '/ledger'],
      ['receivables', '/receivables'],
      ['customers', '/customers'],
      ['products', '/products'],
      ['billing', '/billing'],
      ['exports', '/exports'],
      ['merchants', '/merchants'],
      ['API keys', '/keys'],
      ['webhooks', '/webhooks'],
      ['issue (new invoice)', '/issue'],
    ];
    const rows: string[] = [];
    for (const [name, pagePath] of pages) {
      const times: number[] = [];
      for (let i = 0; i < requestsPerPage + 3; i += 1) {
        const start = performance.now();
        const res = await fetch(`${base}${pagePath}`, {
          headers: { cookie: `cfdi_session=${token}` },
          redirect: 'manual',
        });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`${pagePath}: ${res.status} ${body.slice(0, 200)}`);
        if (i >= 3) times.push(performance.now() - start);
      }
      rows.push(
        `| ${name} | ${percentile(times, 0.5).toFixed(0)} | ${percentile(times, 0.95).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`,
      );
    }
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
    console.log(
      `${documents} documents, ${requestsPerPage} requests per page, load average ${load}, ${os.cpus().length} CPUs\n`,
    );
    console.log('| page | p50 ms | p95 ms | max ms |\n|---|---|---|---|');
    console.log(rows.join('\n'));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await dropDatabase(databaseUrl);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
