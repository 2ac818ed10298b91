import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { invoiceBody, stampingAccount, startStack, type StackHarness } from './stack';

// @cfdi/sdk as an integrator gets it: `npm pack` (its prepack builds it), installed from the tarball into an empty
// folder with no network, then a plain Node ESM script and a CommonJS one each stamp an invoice against the real API.
const run = promisify(execFile);
const sdkDir = path.resolve(__dirname, '../../../packages/sdk');
// npm and node from the runtime running the tests (Node 24), whatever is first on PATH.
const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` };

let stack: StackHarness;
let folder: string;
beforeAll(async () => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-sdk-package-'));
  const packed = await run('npm', ['pack', '--json', '--pack-destination', folder], { cwd: sdkDir, env });
  // The prepack build prints to stdout too (coloured, so with '[' in its escapes): the JSON starts at the line that
  // is just '['.
  const jsonStart = packed.stdout.search(/^\[\s*$/m);
  const [{ filename, files }] = JSON.parse(packed.stdout.slice(jsonStart));
  const names = (files as { path: string }[]).map((f) => f.path);
  expect(names).toEqual(
    expect.arrayContaining([
      'package.json',
      'dist/index.js',
      'dist/index.mjs',
      'dist/index.d.ts',
      'dist/index.d.mts',
      'openapi.json',
    ]),
  );
  expect(names.filter((name) => name.startsWith('src/'))).toEqual([]);
  const consumer = path.join(folder, 'consumer');
  fs.mkdirSync(consumer);
  fs.writeFileSync(path.join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
  await run(
    'npm',
    ['install', '--offline', '--no-package-lock', '--no-audit', '--no-fund', path.join(folder, filename)],
    { cwd: consumer, env },
  );
  stack = await startStack();
}, 180_000);
afterAll(async () => {
  await stack?.close();
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

// The same script in both module systems: stamp, find it by iterating the list, a typed error, a webhook check.
const script = (load: string) => `${load}
const cfdi = new Cfdi({ apiKey: process.env.CFDI_API_KEY, baseUrl: process.env.CFDI_BASE_URL });
const main = async () => {
  const invoice = await cfdi.invoices.create(JSON.parse(process.env.INVOICE));
  let listed = false;
  for await (const item of cfdi.invoices.list({ limit: 1 })) if (item.id === invoice.id) listed = true;
  const missing = await cfdi.invoices.retrieve('inv_missing').catch((error) => error);
  const body = JSON.stringify({ id: 'evt_1' });
  const now = Math.floor(Date.now() / 1000);
  const event = verifyWebhook(body, signWebhook(body, ['whsec_test'], now), 'whsec_test');
  console.log(JSON.stringify({
    status: invoice.status,
    uuid: invoice.uuid,
    listed,
    error: missing instanceof CfdiError ? { code: missing.code, status: missing.status } : String(missing),
    event,
  }));
};
main().catch((error) => { console.error(error); process.exit(1); });
`;

it.each([
  ['esm.mjs', "import { Cfdi, CfdiError, signWebhook, verifyWebhook } from '@cfdi/sdk';"],
  ['cjs.cjs', "const { Cfdi, CfdiError, signWebhook, verifyWebhook } = require('@cfdi/sdk');"],
])(
  '%s stamps an invoice with the installed package',
  async (file, load) => {
    const consumer = path.join(folder, 'consumer');
    // Installed from the tarball alone: the package has no dependency to fetch.
    expect(
      fs.readdirSync(path.join(consumer, 'node_modules')).filter((name) => !name.startsWith('.')),
    ).toEqual(['@cfdi']);
    fs.writeFileSync(path.join(consumer, file), script(load));
    const account = await stampingAccount(stack);
    const { stdout } = await run(process.execPath, [file], {
      cwd: consumer,
      env: {
        ...env,
        CFDI_API_KEY: account.testKey,
        CFDI_BASE_URL: stack.api.url,
        INVOICE: JSON.stringify(invoiceBody(account.merchantId)),
      },
    });
    expect(JSON.parse(stdout)).toEqual({
      status: 'stamped',
      uuid: expect.stringMatching(/^[0-9A-F-]{36}$/),
      listed: true,
      error: { code: 'not_found', status: 404 },
      event: { id: 'evt_1' },
    });
  },
  120_000,
);

// The named models of the OpenAPI document (components.schemas) are types of the installed package: a TypeScript
// consumer compiles against them under `strict`, and a misuse (a status no invoice has) is a compile error.
it('exports the named model types to a TypeScript consumer', async () => {
  const consumer = path.join(folder, 'consumer');
  const tsc = require.resolve('typescript/bin/tsc');
  const typeRoots = path.resolve(path.dirname(require.resolve('@types/node/package.json')), '..');
  const source = (
    status: string,
  ) => `import type { Invoice, InvoiceCreate, Customer, Problem } from '@cfdi/sdk';
export const status: Invoice['status'] = '${status}';
export const body: Pick<InvoiceCreate, 'merchantId' | 'formaPago'> = { merchantId: 'mch_1', formaPago: '03' };
export const rfc = (customer: Customer): string => customer.rfc;
export const code = (problem: Problem): string => problem.code;
`;
  const compile = (status: string) => {
    fs.writeFileSync(path.join(consumer, 'typed.ts'), source(status));
    return run(
      process.execPath,
      // A Node project has Node's types (the webhook helpers take a Buffer): the repository's @types/node.
      [
        tsc,
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--typeRoots',
        typeRoots,
        '--types',
        'node',
        'typed.ts',
      ],
      { cwd: consumer, env },
    );
  };
  await compile('stamped');
  await expect(compile('paid')).rejects.toMatchObject({ stdout: expect.stringContaining('"paid"') });
}, 60_000);
