import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NODE_24_VERSION } from '../src/node-runtime';

const root = path.resolve(__dirname, '../../..');
const bootstrap = path.join(root, 'scripts/bootstrap.mjs');

it('scripts/bootstrap.mjs pins the same Node 24 as node-runtime.ts', () => {
  expect(/const NODE_24_VERSION = '([\d.]+)';/.exec(fs.readFileSync(bootstrap, 'utf8'))?.[1]).toBe(
    NODE_24_VERSION,
  );
});

it('runs the script, npm and every `node` below it on Node 24, whatever Node started it', async () => {
  // The fixture prints its own version and the version of the `node` its PATH finds (what npm, turbo and jest use).
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [
        '-e',
        `import(${JSON.stringify(bootstrap)}).then((b) => b.runTs('packages/devstack/test/fixtures/versions.ts'))`,
      ],
      { cwd: root, timeout: 120_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  expect(out).toBe(`script v${NODE_24_VERSION.split('.')[0]}\nPATH node v${NODE_24_VERSION.split('.')[0]}\n`);
}, 180_000);
