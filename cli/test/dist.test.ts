import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@cfdi/devstack';
import { testConfig } from '@cfdi/testkit';
import { version } from '../package.json';

// The compiled CLI, as production runs it (`node cli/dist/cfdi.js`): two bundles, the command table in cfdi.js and
// every command with its dependencies inlined in cfdi-commands.js.
const cliDir = path.join(__dirname, '..');
const bin = path.join(cliDir, 'dist', 'cfdi.js');
const preload = path.join(__dirname, 'trace-requires.js');
const COMMANDS = [
  'accounts',
  'keys',
  'balance',
  'db',
  'ledger',
  'catalogs',
  'reconcile',
  'files',
  'emails',
  'console-users',
  'exchange-rates',
  'master-key',
  'doctor',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cfdi(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  entry = bin,
  nodeArgs: string[] = [],
): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, entry, ...args],
      { env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}

let databaseUrl: string;
beforeAll(() => {
  databaseUrl = testConfig().databaseUrl;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: cliDir, stdio: 'pipe' });
}, 180_000);

it('`--version` prints the version and exits 0', async () => {
  expect(await cfdi(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
});

it('`--help` loads Commander alone and documents the exit codes', async () => {
  const help = await cfdi(['--help'], {}, bin, ['-r', preload]);
  expect(help.code).toBe(0);
  expect(/^LOADED (.*)$/m.exec(help.stderr)?.[1]).toBe('commander');
  for (const line of ['2  usage', '3  not found', '4  conflict', '5  a dependency is down'])
    expect(help.stdout).toContain(line);
});

it('every command loads from the bundle (its inlined dependencies included) and describes itself', async () => {
  for (const command of COMMANDS) {
    const help = await cfdi([command, '--help']);
    expect({ command, code: help.code, stderr: help.stderr }).toEqual({ command, code: 0, stderr: '' });
    expect(help.stdout).toContain(`Usage: cfdi ${command}`);
  }
}, 120_000);

it('`--mode` shows its default as "test", not as the boolean it parses to', async () => {
  const help = await cfdi(['keys', 'create', '--help']);
  expect(help.stdout).toMatch(/--mode <test\|live>\s+key mode \(default: test\)/);
  expect(help.stdout).not.toContain('default: false');
});

it('a usage error exits 2; under --json it is one JSON object on stderr and nothing on stdout', async () => {
  const plain = await cfdi(['balance', 'shwo']);
  expect(plain.code).toBe(2);
  const json = await cfdi(['nope', '--json']);
  expect(json).toMatchObject({ code: 2, stdout: '' });
  expect(JSON.parse(json.stderr)).toEqual({
    error: { code: 'usage.unknownCommand', message: "unknown command 'nope'", hint: expect.any(String) },
  });
});

it('with PostgreSQL unreachable, `balance show` says so in one line with the fix and exits 5', async () => {
  const url = new URL(databaseUrl);
  url.port = String(await freePort()); // nothing listens there
  const down = await cfdi(['balance', 'show', 'acct_x'], { DATABASE_URL: url.toString() });
  expect(down).toEqual({
    code: 5,
    stdout: '',
    stderr: `error: cannot reach PostgreSQL at 127.0.0.1:${url.port} — is it running? (cfdi doctor)\n`,
  });
  const json = await cfdi(['balance', 'show', 'acct_x', '--json'], { DATABASE_URL: url.toString() });
  expect(json.code).toBe(5);
  expect(JSON.parse(json.stderr)).toEqual({
    error: {
      code: 'dependency_unavailable',
      message: `cannot reach PostgreSQL at 127.0.0.1:${url.port}`,
      hint: 'is it running? (cfdi doctor)',
    },
  });
}, 60_000);

it('an unknown account exits 3 (not found) from the compiled CLI against the real database', async () => {
  const missing = await cfdi(['balance', 'show', 'acct_nope', '--json'], { DATABASE_URL: databaseUrl });
  expect(missing.code).toBe(3);
  expect(JSON.parse(missing.stderr).error).toMatchObject({ code: 'not_found' });
}, 60_000);

it('an invalid configuration exits 6 and names the variable', async () => {
  const invalid = await cfdi(['balance', 'show', 'acct_x'], { RATE_LIMIT_PER_MINUTE: 'many' });
  expect(invalid.code).toBe(6);
  expect(invalid.stderr).toMatch(/^error: RATE_LIMIT_PER_MINUTE="many" .*\n$/);
});

describe('in a checkout where `npm run up` generated the development master key', () => {
  let checkout: string;
  beforeAll(() => {
    // A copy of the compiled CLI in a workspace of its own, so the test writes no key into this checkout's var/.
    checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-checkout-'));
    fs.writeFileSync(path.join(checkout, 'package.json'), JSON.stringify({ workspaces: ['cli'] }));
    fs.cpSync(path.join(cliDir, 'dist'), path.join(checkout, 'cli', 'dist'), { recursive: true });
    fs.symlinkSync(path.join(cliDir, '..', 'node_modules'), path.join(checkout, 'node_modules'));
  });
  afterAll(() => fs.rmSync(checkout, { recursive: true, force: true }));

  const masterKey = async () => {
    const run = await cfdi(
      ['doctor', '--json'],
      { MASTER_KEY: '', STORAGE_DIR: path.join(checkout, 'files') },
      path.join(checkout, 'cli', 'dist', 'cfdi.js'),
    );
    expect(run.stderr).toBe('');
    return (JSON.parse(run.stdout).checks as { name: string; detail: string }[]).find(
      (check) => check.name === 'master key',
    )!.detail;
  };

  it('`doctor` reads it from var/dev-master-key, as the services `up` starts do', async () => {
    expect(await masterKey()).toBe('not set (test mode only)');
    fs.mkdirSync(path.join(checkout, 'var'));
    fs.writeFileSync(path.join(checkout, 'var', 'dev-master-key'), Buffer.alloc(32, 7).toString('base64'));
    expect(await masterKey()).toMatch(
      /^key id k1, the development key `npm run up` keeps in var\/dev-master-key$/,
    );
  }, 120_000);
});
