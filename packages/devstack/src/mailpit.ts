import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { ensureGoTool, goToolPath, type GoTool } from './go-install';
import { freePort, waitForPort } from './supervisor';

/** Pinned: the newest Mailpit the Go module proxy serves (`go list -m -versions github.com/axllent/mailpit`). */
export const MAILPIT_VERSION = 'v1.33.1';

const MAILPIT: GoTool = {
  title: 'Mailpit',
  name: 'mailpit',
  binary: 'mailpit',
  pkg: 'github.com/axllent/mailpit',
  version: MAILPIT_VERSION,
};

export function mailpitPath(): string {
  return goToolPath(MAILPIT);
}

/** Builds Mailpit (a local SMTP server that keeps every message and shows it in a web UI) into the tool cache. */
export function ensureMailpit(log: (line: string) => void): string {
  return ensureGoTool(MAILPIT, log, ', or point SMTP_URL at an SMTP server of your own');
}

/**
 * Its arguments: SMTP and the web UI on loopback only, any SMTP credentials accepted and none required, no reverse
 * DNS or version check (nothing leaves the machine), nothing relayed anywhere.
 */
export function mailpitArgs(smtpPort: number, httpPort: number): string[] {
  return [
    '--smtp',
    `127.0.0.1:${smtpPort}`,
    '--listen',
    `127.0.0.1:${httpPort}`,
    '--smtp-auth-accept-any',
    '--smtp-auth-allow-insecure',
    '--smtp-disable-rdns',
    '--disable-version-check',
    '--quiet',
  ];
}

export interface RunningMailpit {
  /** For SMTP_URL. */
  smtpUrl: string;
  smtpPort: number;
  /** The web UI, and its API under `/api/v1`. */
  webUrl: string;
  stop(): Promise<void>;
}

/** Mailpit for a test suite: free loopback ports (unless given), its messages in a temporary store that goes with it. */
export async function startMailpit(
  log: (line: string) => void,
  ports: { smtp?: number; http?: number } = {},
): Promise<RunningMailpit> {
  const binary = ensureMailpit(log);
  const smtpPort = ports.smtp ?? (await freePort());
  const httpPort = ports.http ?? (await freePort());
  const child = spawn(binary, mailpitArgs(smtpPort, httpPort), { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    readline.createInterface({ input: stream }).on('line', (line) => log(`mailpit: ${line}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await Promise.race([
      Promise.all([waitForPort('127.0.0.1', smtpPort, 60_000), waitForPort('127.0.0.1', httpPort, 60_000)]),
      exited.then(() => {
        throw new Error(`Mailpit exited at start (code ${child.exitCode})`);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smtpPort,
    webUrl: `http://127.0.0.1:${httpPort}`,
    stop,
  };
}
