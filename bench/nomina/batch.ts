// bench/nomina: receipts per second of POST /v1/nominas/batch on a real multi-process stack (API, worker and sandbox
// PAC in their own processes, in-memory Temporal dev server, PostgreSQL, Redis).
// Usage: npx tsx bench/nomina/batch.ts [employees=200] [runs=3]
//   Databases cfdi_bench_nomina_<random> and pac_sandbox_bench_nomina_<random> are created and dropped at the end
//   (BENCH_KEEP_DB=1 keeps them); ports come from freePort(). FILES_INLINE_MAX_ITEMS=0 renders files after the answer.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '@cfdi/config';
import { createOrm, ensureDatabase, migrate } from '@cfdi/db';
import { createMerchantAccount, stackEnv } from '@cfdi/testkit';
import {
  freePort,
  importCatalogsIfNeeded,
  startTemporalDevServer,
  Supervisor,
  waitForHttp,
} from '@cfdi/devstack';
import { NOMINA_RECEIPT } from '@cfdi/api';
import { log, root } from '../bench-stack';

const employees = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 3);

/** One employee's fortnight: salary, overtime, ISR, IMSS and the employment subsidy. */
const receipt = (i: number) => ({
  ...NOMINA_RECEIPT,
  employee: { ...NOMINA_RECEIPT.employee, numEmpleado: `E-${i}` },
  percepciones: [
    { tipo: '001', clave: '001', concepto: 'Sueldo', importeGravado: 7000 + i, importeExento: 0 },
    {
      tipo: '019',
      clave: '019',
      concepto: 'Horas extra',
      importeGravado: 250,
      importeExento: 250,
      horasExtra: [{ dias: 1, tipoHoras: '01', horasExtra: 2, importePagado: 500 }],
    },
  ],
  otrosPagos: [
    { tipo: '002', clave: 'SUB', concepto: 'Subsidio para el empleo', importe: 12.34, subsidioCausado: 20 },
  ],
});

async function dropDatabases(names: string[]): Promise<void> {
  const client = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  try {
    for (const name of names) await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const [dbName, pacDbName] = [`cfdi_bench_nomina_${suffix}`, `pac_sandbox_bench_nomina_${suffix}`];
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  const [apiPort, pacPort, temporalPort] = [await freePort(), await freePort(), await freePort()];
  Object.assign(
    process.env,
    stackEnv({
      databaseUrl,
      pacDatabaseUrl: `postgres://postgres@127.0.0.1:5432/${pacDbName}`,
      apiPort,
      pacPort,
      taskQueue: `bench-nomina-${suffix}`,
      storageDir: `var/bench-nomina-${suffix}`,
    }),
  );
  const config = loadConfig();
  await ensureDatabase(databaseUrl);
  const orm = await createOrm(databaseUrl);
  const supervisor = new Supervisor((name, code) => log(`${name} exited (${code})`));
  try {
    await migrate(orm);
    await importCatalogsIfNeeded(orm, log);
    process.env.TEMPORAL_ADDRESS = await startTemporalDevServer(supervisor, { port: temporalPort, log });
    for (const [name, entry] of [
      ['pac', 'apps/pac-sandbox/src/server.ts'],
      ['api', 'apps/api/src/server.ts'],
      ['worker', 'apps/worker/src/main.ts'],
    ]) {
      supervisor.start(name!, process.execPath, ['--import', 'tsx', path.join(root, entry!)], { cwd: root });
    }
    const base = `http://127.0.0.1:${apiPort}`;
    await waitForHttp(`${base}/ready`, 60_000);
    await waitForHttp(`http://127.0.0.1:${pacPort}/health`, 60_000);

    const { headers: auth, merchantId } = await createMerchantAccount(orm, config, base, {
      name: 'bench nomina',
      serie: 'NOM',
    });
    const post = (url: string, body: unknown) =>
      fetch(`${base}${url}`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': `bench-${randomBytes(8).toString('hex')}` },
        body: JSON.stringify(body),
      });

    // Warm-up: bundles compiled, connections open, caches filled.
    const warm = await post('/v1/nominas/batch', {
      merchantId,
      nominas: Array.from({ length: 10 }, (_, i) => receipt(i)),
    });
    if (warm.status !== 200) throw new Error(`warm-up batch: ${warm.status} ${await warm.text()}`);

    const lines: string[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const res = await post('/v1/nominas/batch', {
        merchantId,
        nominas: Array.from({ length: employees }, (_, i) => receipt(i)),
      });
      const answered = (performance.now() - started) / 1000;
      const body = (await res.json()) as {
        summary: { total: number; stamped: number; stamping: number; failed: number };
      };
      // Receipts answered 202 finish on their own: the run ends when the last one is stamped.
      const pending = async () =>
        (
          (await orm.em
            .fork()
            .execute(
              `select count(*) as n from documents where type = 'nomina' and status = 'stamping'`,
            )) as { n: string }[]
        )[0]!.n;
      while ((await pending()) !== '0') await new Promise((r) => setTimeout(r, 200));
      const done = (performance.now() - started) / 1000;
      const line = `| ${employees} | ${answered.toFixed(1)} | ${(employees / answered).toFixed(1)} | ${done.toFixed(1)} | ${(employees / done).toFixed(1)} | ${JSON.stringify(body.summary)} |`;
      log(line);
      lines.push(line);
    }
    process.stdout.write(
      `\nPOST /v1/nominas/batch (FILES_INLINE_MAX_ITEMS=${config.filesInlineMaxItems})\n| employees | answered after s | receipts/s (answer) | all stamped after s | receipts/s (stamped) | summary |\n|---|---|---|---|---|---|\n${lines.join('\n')}\n`,
    );
  } finally {
    await supervisor.stopAll();
    await orm.close();
    if (!process.env.BENCH_KEEP_DB) await dropDatabases([dbName, pacDbName]);
    fs.rmSync(path.join(root, `var/bench-nomina-${suffix}`), { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
