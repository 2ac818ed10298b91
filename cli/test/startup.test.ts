import { execFile } from 'node:child_process';
import path from 'node:path';

// What `cfdi` loads decides how fast it starts: the heavy packages must wait for the command that needs them.
const HEAVY = [
  '@mikro-orm/core',
  '@mikro-orm/postgresql',
  '@temporalio/client',
  'pdfkit',
  'xlsx',
  'ioredis',
  '@aws-sdk/client-s3',
];
const bin = path.join(__dirname, '../bin/cfdi.js');
const preload = path.join(__dirname, 'trace-requires.js');

/** The packages (outside node_modules' own requires) that `cfdi <args>` loaded, as reported at exit by the preload. */
function loadedBy(args: string[]): Promise<{ packages: string[]; stdout: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['-r', preload, bin, ...args],
      { timeout: 180_000 },
      (error, stdout, stderr) => {
        const line = /^LOADED (.*)$/m.exec(stderr);
        if (!line) return reject(error ?? new Error(`no LOADED line in: ${stderr}`));
        resolve({ packages: line[1]!.split(',').filter(Boolean), stdout });
      },
    );
  });
}

it('`cfdi --help` lists every command without loading the ORM, Temporal or PDF code', async () => {
  const { packages, stdout } = await loadedBy(['--help']);
  for (const command of [
    'accounts',
    'keys',
    'balance',
    'db',
    'ledger',
    'catalogs',
    'reconcile',
    'files',
    'doctor',
  ])
    expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  expect(packages.filter((p) => HEAVY.includes(p))).toEqual([]);
}, 180_000);

it('`cfdi balance --help` loads its own command and describes it', async () => {
  const { stdout } = await loadedBy(['balance', '--help']);
  expect(stdout).toContain('Balances and ledger corrections');
  expect(stdout).toMatch(/show \[options\] <accountId>/);
}, 180_000);
