import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { busyPorts } from '../src/ports';
import { freePort } from '../src/supervisor';

const root = path.resolve(__dirname, '../../..');

/** Alive: listed in /proc and not a zombie (an orphan's parent may be a PID 1 that never reaps). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Stack {
  bootstrap: ChildProcess;
  supervisor: number;
  /** The children and their grandchildren. */
  services: number[];
  output: () => string;
}

/** The fixture supervisor started as `npm run up` starts scripts/up.ts: through scripts/bootstrap.mjs's runTs. */
async function startStack(): Promise<Stack> {
  const bootstrap = spawn(
    process.execPath,
    [
      '-e',
      `import(${JSON.stringify(path.join(root, 'scripts/bootstrap.mjs'))}).then((b) => b.runTs(process.argv[1]))`,
      'packages/devstack/test/fixtures/supervise.ts',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SUPERVISE_GRACE_MS: '1500' } },
  );
  let output = '';
  bootstrap.stdout!.on('data', (chunk) => (output += chunk));
  bootstrap.stderr!.on('data', (chunk) => (output += chunk));
  const pids = () => [...output.matchAll(/PIDS (\d+) (\d+)/g)].flatMap((m) => [Number(m[1]), Number(m[2])]);
  await until('the stack to start', () => pids().length === 4 && /SUPERVISOR \d+/.test(output), 120_000);
  const supervisor = Number(/SUPERVISOR (\d+)/.exec(output)![1]);
  expect([bootstrap.pid!, supervisor, ...pids()].every(alive)).toBe(true);
  return { bootstrap, supervisor, services: pids(), output: () => output };
}

async function expectAllGone(stack: Stack): Promise<void> {
  const everyone = [stack.bootstrap.pid!, stack.supervisor, ...stack.services];
  await until(`every process to be gone:\n${stack.output()}`, () => !everyone.some(alive));
}

describe('no child outlives the supervisor, whatever stops it', () => {
  // The "console" child ignores SIGTERM: it must get SIGKILL after the grace period, its grandchild with it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    it(`${signal} to the bootstrap (\`npm run up\`'s node)`, async () => {
      const stack = await startStack();
      stack.bootstrap.kill(signal);
      await expectAllGone(stack);
      expect(stack.output()).toContain(`${signal}: stopping…`);
      expect(stack.output()).toContain('ignoring SIGTERM');
    }, 180_000);

  it('SIGTERM to the supervisor alone', async () => {
    const stack = await startStack();
    process.kill(stack.supervisor, 'SIGTERM');
    await expectAllGone(stack);
  }, 180_000);

  it('SIGKILL of the supervisor: the orphan reaper stops its children', async () => {
    const stack = await startStack();
    process.kill(stack.supervisor, 'SIGKILL');
    await expectAllGone(stack);
    expect(stack.output()).not.toContain('stopping…'); // nothing in the supervisor could run
  }, 180_000);

  it('SIGKILL of the bootstrap: the supervisor sees its parent gone and stops everything', async () => {
    const stack = await startStack();
    stack.bootstrap.kill('SIGKILL');
    await expectAllGone(stack);
  }, 180_000);
});

describe('busy ports', () => {
  it('names the process that holds a port, its command line, and how to free it or move the service', async () => {
    const port = await freePort();
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((resolve) => holder.stdout!.once('data', resolve));
      const [problem, ...more] = await busyPorts([
        { port, service: 'Temporal', moveWith: '--temporal-port' },
        { port: await freePort(), service: 'API', moveWith: 'API_PORT' },
      ]);
      expect(more).toEqual([]);
      expect(problem).toBe(
        `port ${port} (Temporal) is already in use by pid ${holder.pid} (${process.execPath} -e ${holder.spawnargs[2] as string}): ` +
          `stop it (\`kill ${holder.pid}\`; a stack left by an earlier \`npm run up\`? then all of it) or choose another port with --temporal-port.`,
      );
    } finally {
      holder.kill();
    }
  }, 60_000);

  it('a port held on another address of the machine (0.0.0.0) is busy too', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      const problems = await busyPorts([{ port, service: 'API', moveWith: 'API_PORT' }]);
      expect(problems).toEqual([expect.stringContaining(`by pid ${process.pid} `)]);
    } finally {
      server.close();
    }
  });
});
