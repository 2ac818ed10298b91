import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import type { Writable } from 'node:stream';

const COLORS = [36, 35, 33, 32, 34, 91, 96];

/** How long a child may take to stop after SIGTERM before its process group gets SIGKILL. */
const STOP_GRACE_MS = 8000;

/**
 * Starts child processes with prefixed logs and stops them all, in reverse order, on demand or on a signal.
 *
 * No child outlives the supervisor (decisions.md, "`npm run up` leaves nothing behind"):
 * - each child leads a process group (and session) of its own, and stopping signals the whole group, so what the
 *   child started itself (tsx's node, Next.js's workers) stops with it; a group still there after the grace period
 *   gets SIGKILL;
 * - an orphan reaper (orphan-reaper.cjs), started with the first child, holds the list of groups and stops them
 *   when its stdin pipe from the supervisor closes: Node cannot ask the kernel to signal children when their parent
 *   dies (prctl PR_SET_PDEATHSIG), but a pipe's end is seen whatever killed the supervisor, SIGKILL included.
 */
export class Supervisor {
  private readonly children: { name: string; child: ChildProcess }[] = [];
  private stopping = false;
  private reaper: Writable | null = null;

  constructor(
    private readonly onUnexpectedExit: (name: string, code: number | null) => void = () => undefined,
    private readonly graceMs = STOP_GRACE_MS,
  ) {}

  /** The reaper's stdin, once; it neither keeps this process alive nor shares its output pipes. */
  private reaperInput(): Writable {
    if (!this.reaper) {
      const reaper = spawn(
        process.execPath,
        [path.join(__dirname, 'orphan-reaper.cjs'), String(this.graceMs)],
        {
          stdio: ['pipe', 'ignore', 'ignore'],
          detached: true,
        },
      );
      reaper.unref();
      const input = reaper.stdin!;
      (input as unknown as { unref?: () => void }).unref?.();
      input.on('error', () => undefined); // the reaper died: nothing to tell it any more
      this.reaper = input;
    }
    return this.reaper;
  }

  /** The children's process ids (each also its process group's id), for tests and diagnostics. */
  get pids(): { name: string; pid: number | undefined }[] {
    return this.children.map(({ name, child }) => ({ name, pid: child.pid }));
  }

  start(
    name: string,
    command: string,
    args: string[],
    options: { env?: Record<string, string | undefined>; cwd?: string } = {},
  ): ChildProcess {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const color = COLORS[this.children.length % COLORS.length];
    const prefix = process.stdout.isTTY ? `\x1b[${color}m${name.padEnd(8)}│\x1b[0m ` : `${name.padEnd(8)}| `;
    for (const stream of [child.stdout!, child.stderr!]) {
      readline
        .createInterface({ input: stream })
        .on('line', (line) => process.stdout.write(`${prefix}${line}\n`));
    }
    const reaper = this.reaperInput();
    if (child.pid) reaper.write(`+${child.pid}\n`);
    child.on('exit', (code) => {
      if (child.pid) reaper.write(`-${child.pid}\n`);
      if (!this.stopping) this.onUnexpectedExit(name, code);
    });
    this.children.push({ name, child });
    return child;
  }

  /** SIGTERM to each process group (so grandchildren such as tsx's node go too), SIGKILL after a grace period. */
  async stopAll(graceMs = this.graceMs): Promise<void> {
    this.stopping = true;
    for (const { child } of [...this.children].reverse()) {
      // A child killed by a signal has a signalCode and no exitCode: it is gone too, and its 'exit' will not come again.
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        continue;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, graceMs);
      // Bounded even if the 'exit' event was missed: stopping must never hang its caller (a test runner, `up`).
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, graceMs + 2000).unref())]);
      clearTimeout(timer);
    }
  }
}

/**
 * Makes this process stop its children and exit when asked to stop (SIGINT, SIGTERM, SIGHUP) or when its parent is
 * gone (a bootstrap killed with SIGKILL: this process is re-parented, and nobody is left to relay Ctrl-C). `on`, not
 * `once`: Ctrl-C reaches this process twice (from the terminal and relayed by the bootstrap), and a second signal
 * without a handler would kill it halfway through stopping.
 */
export function stopOnRequest(supervisor: Supervisor, log: (line: string) => void): void {
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log(`${why}: stopping…`);
    void supervisor.stopAll().then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(signal));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop(`parent process ${parent} gone`);
  }, 500).unref();
}

export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host, port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listening on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A free TCP port on loopback, for servers started by tests. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A free TCP port on loopback below `limit` (the kernel's own picks are ephemeral ports, usually from 32768 up): a
 * random one from 10000 is tried until one binds.
 */
export async function freePortBelow(limit: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (limit - 10_000));
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port below ${limit} after 100 tries`);
}
