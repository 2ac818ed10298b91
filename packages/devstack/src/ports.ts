import fs from 'node:fs';
import net from 'node:net';

/** A TCP port a service is about to listen on, and the option or variable that moves it. */
export interface PlannedPort {
  port: number;
  service: string;
  /** How to choose another port, e.g. "--temporal-port" or "API_PORT". */
  moveWith: string;
}

/** Who holds a port: the process id and its command line, when the system says (Linux's /proc). */
export interface PortHolder {
  pid: number;
  command: string;
}

function listens(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** Socket inodes listening on `port` (any address, IPv4 or IPv6), from /proc/net/tcp and tcp6. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; the inode is the tenth field.
      if (fields.length > 9 && fields[3] === '0A' && parseInt(fields[1]!.split(':')[1]!, 16) === port)
        inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/**
 * The processes that hold a listening socket on `port`: each process's open files in /proc/<pid>/fd are matched
 * with the socket's inode. Empty where /proc is missing (macOS) or the holder belongs to another user.
 */
export function portHolders(port: number): PortHolder[] {
  const inodes = listeningInodes(port);
  if (!inodes.size) return [];
  const holders: PortHolder[] = [];
  for (const entry of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    const holds = fds.some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${entry}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
    if (!holds) continue;
    let command = '?';
    try {
      command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // exited meanwhile
    }
    holders.push({ pid: Number(entry), command });
  }
  return holders;
}

/**
 * The planned ports something already listens on, each said in one paragraph: which service wanted it, which
 * process holds it (pid and command line) and how to free it or move the service. Empty when every port is free.
 */
export async function busyPorts(planned: PlannedPort[], host = '127.0.0.1'): Promise<string[]> {
  const problems: string[] = [];
  for (const { port, service, moveWith } of planned) {
    if (!(await listens(port, host))) continue;
    const holders = portHolders(port);
    const who = holders.length
      ? holders
          .map((h) => `pid ${h.pid} (${h.command.length > 200 ? `${h.command.slice(0, 200)}…` : h.command})`)
          .join(', ')
      : `another process (\`ss -ltnp 'sport = :${port}'\` or \`lsof -i :${port}\` says which)`;
    const kill = holders.length
      ? `stop it (\`kill ${holders.map((h) => h.pid).join(' ')}\`; a stack left by an earlier \`npm run up\`? then all of it) or `
      : 'stop it or ';
    problems.push(
      `port ${port} (${service}) is already in use by ${who}: ${kill}choose another port with ${moveWith}.`,
    );
  }
  return problems;
}
