import fs from 'node:fs';

/** Which process plays which part, by command line (the bench's own children and the local PostgreSQL). */
const ROLES: Array<[string, RegExp]> = [
  ['API', /apps\/api\/src\/server\.ts/],
  ['worker', /apps\/worker\/src\/main\.ts/],
  ['sandbox PAC', /apps\/pac-sandbox\/src\/server\.ts/],
  ['Temporal', /temporal server start-dev/],
  ['PostgreSQL', /^postgres/],
];

const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) used so far by every process of each role, from /proc (Linux). */
export function cpuSecondsByRole(): Record<string, number> {
  const totals: Record<string, number> = Object.fromEntries(ROLES.map(([role]) => [role, 0]));
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const role = ROLES.find(([, pattern]) => pattern.test(command))?.[0];
      if (!role) continue;
      // Fields after the parenthesised name: utime and stime are the 12th and 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      totals[role]! += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // the process ended while being read
    }
  }
  return totals;
}

/** CPU milliseconds per stamp of each role between two readings. */
export function cpuPerStamp(before: Record<string, number>, after: Record<string, number>, stamps: number): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((role) => [role, ((after[role]! - (before[role] ?? 0)) * 1000) / stamps]));
}
