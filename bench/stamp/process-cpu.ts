import fs from 'node:fs';

/** Which process plays which part, by command line (the bench's own children and the local PostgreSQL). */
const ROLES: Array<[string, RegExp]> = [
  ['API', /apps\/api\/src\/server\.ts/],
  ['worker', /apps\/worker\/src\/main\.ts/],
  ['sandbox PAC', /apps\/pac-sandbox\/src\/server\.ts/],
  ['Temporal', /temporal server start-dev|temporal-server-v[^/]+\/server /],
  ['PostgreSQL', /^postgres/],
];

const TICKS_PER_SECOND = 100;

const stat = (pid: string) => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');

/** Process ids descending from this process (its children, theirs, …). */
function descendants(): Set<string> {
  const parentOf = new Map<string, string>();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      parentOf.set(pid, stat(pid)[1]!);
    } catch {
      // the process ended while being read
    }
  }
  const mine = new Set([String(process.pid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parentOf) {
      if (mine.has(pid) || !mine.has(parent)) continue;
      mine.add(pid);
      grew = true;
    }
  }
  return mine;
}

/**
 * CPU seconds (user + system) used so far by each role, from /proc (Linux): only this bench's own processes (other
 * stacks on a shared machine run the same entry points), and the PostgreSQL backends serving `databases` (a
 * backend's command line names its database).
 */
export function cpuSecondsByRole(databases: string[] = []): Record<string, number> {
  const totals: Record<string, number> = Object.fromEntries(ROLES.map(([role]) => [role, 0]));
  const mine = descendants();
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const role = ROLES.find(([, pattern]) => pattern.test(command))?.[0];
      if (!role) continue;
      const ours =
        role === 'PostgreSQL' ? databases.some((name) => command.includes(` ${name} `)) : mine.has(pid);
      if (!ours) continue;
      // Fields after the parenthesised name: utime and stime are the 12th and 13th.
      const fields = stat(pid);
      totals[role]! += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // the process ended while being read
    }
  }
  return totals;
}

/** CPU milliseconds per stamp of each role between two readings. */
export function cpuPerStamp(
  before: Record<string, number>,
  after: Record<string, number>,
  stamps: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.keys(after).map((role) => [role, ((after[role]! - (before[role] ?? 0)) * 1000) / stamps]),
  );
}
