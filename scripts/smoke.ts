// `tsx scripts/smoke.ts [node-binary]`: the compiled stack started once from dist/ with that Node (default: this
// one): sandbox PAC, API and worker, an account made by the compiled CLI, a merchant with its CSD and one invoice
// through the typed client, which must answer 201 stamped. Needs `turbo run build` first, and the test environment
// (DATABASE_URL, REDIS_URL, TEMPORAL_ADDRESS, SAT_DIR) that scripts/test.ts sets up.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { freePort, PRODUCTION_ENV, Supervisor, waitForHttp } from '@cfdi/devstack';
import { Cfdi, type Body } from '@cfdi/sdk';
import { applyTestEnv } from '@cfdi/testkit';

const root = path.resolve(__dirname, '..');
const node = process.argv[2] ?? process.execPath;
const log = (line: string) => process.stdout.write(`[smoke] ${line}\n`);

function satPair(name: string) {
  const file = (ext: string) =>
    fs.readFileSync(path.join(defaultSatDir(), 'test-certs', `${name}.${ext}`)).toString('base64');
  return { cer: file('cer'), key: file('key'), password: '12345678a' };
}

async function main(): Promise<void> {
  applyTestEnv(); // the test MASTER_KEY (CSD upload) and databases, unless scripts/test.ts set them already
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const [apiPort, pacPort] = [await freePort(), await freePort()];
  const database = new URL(process.env.DATABASE_URL!);
  const pacDatabase = new URL(database);
  pacDatabase.pathname = `${database.pathname}_smoke_pac`;
  const env = {
    NODE_ENV: 'production',
    ...PRODUCTION_ENV,
    LOG_LEVEL: 'warn',
    // Nothing routes to it: no need for the production drain before it stops.
    DRAIN_DELAY_MS: '0',
    API_PORT: String(apiPort),
    PAC_SANDBOX_PORT: String(pacPort),
    PAC_SANDBOX_URL: `http://127.0.0.1:${pacPort}`,
    PAC_SANDBOX_DATABASE_URL: pacDatabase.toString(),
    TEMPORAL_TASK_QUEUE: `smoke-${randomBytes(4).toString('hex')}`,
    STORAGE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-smoke-')),
    // The worker may still be starting when the invoice arrives: wait for it rather than answering 202.
    STAMP_WAIT_MS: '90000',
    LIVE_ENABLED: 'false',
  };
  const supervisor = new Supervisor((name, code) => log(`${name} exited unexpectedly (${code})`));
  try {
    log(`compiled stack on Node ${version}`);
    supervisor.start('pac', node, ['apps/pac-sandbox/dist/server.js'], { cwd: root, env });
    supervisor.start('api', node, ['apps/api/dist/server.js'], { cwd: root, env });
    supervisor.start('worker', node, ['apps/worker/dist/main.js'], { cwd: root, env });
    await waitForHttp(`${env.PAC_SANDBOX_URL}/health`, 120_000);
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, 120_000);

    const created = execFileSync(
      node,
      ['cli/dist/cfdi.js', 'accounts', 'create', '--name', 'smoke', '--json'],
      { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' },
    );
    const api = `http://127.0.0.1:${apiPort}`;
    // The image carries the reference site: a problem's page answers from the compiled API.
    const page = await fetch(`${api}/docs/errors/sat_rejected`);
    if (page.status !== 200) throw new Error(`/docs/errors/sat_rejected: ${page.status}`);
    const cfdi = new Cfdi({ baseUrl: api, apiKey: JSON.parse(created).testKey });
    const serie = `SM${randomBytes(3).toString('hex').toUpperCase()}`;
    const merchant = await cfdi.merchants.create({
      rfc: 'EKU9003173C9',
      legalName: 'ESCUELA KEMPER URGATE',
      regimenFiscal: '601',
      zip: '42501',
      serie,
    } as Body<'createMerchant'>);
    await cfdi.merchants.createCsd(merchant.id, satPair('EKU9003173C9-csd'));
    const invoice = (await cfdi.invoices.create({
      merchantId: merchant.id,
      formaPago: '03',
      usoCfdi: 'G03',
      receiver: {
        rfc: 'URE180429TM6',
        name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
        zip: '86991',
        regimenFiscal: '601',
      },
      items: [
        {
          productCode: '43211503',
          unitCode: 'H87',
          description: 'Computadora portátil',
          quantity: 1,
          unitPrice: 11600,
        },
      ],
    } as Body<'createInvoice'>)) as { status: string };
    if (invoice.status !== 'stamped') throw new Error(`invoice: ${JSON.stringify(invoice)}`);
    log(`Node ${version}: POST /v1/invoices answered 201 stamped`);
  } finally {
    await supervisor.stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    log(`FAILED: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
