import fs from 'node:fs';

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) used so far by the processes of each role, a role being the process groups it owns
 * (the supervisor starts each child in a group of its own). Other processes on the machine, such as another stack
 * started from the same sources, are not counted.
 */
export function cpuSecondsByGroup(groups: Record<string, number[]>): Record<string, number> {
  const roleOf = new Map(
    Object.entries(groups).flatMap(([role, pgids]) => pgids.map((pgid) => [pgid, role] as const)),
  );
  const totals: Record<string, number> = Object.fromEntries(Object.keys(groups).map((role) => [role, 0]));
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // Fields after the parenthesised name: pgrp is the 3rd, utime and stime the 12th and 13th.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const role = roleOf.get(Number(fields[2]));
      if (role) totals[role]! += (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      // the process ended while being read
    }
  }
  return totals;
}

/** The process group of the process whose command line contains `needle` (e.g. the Temporal server's port). */
export function processGroupOf(needle: string): number | null {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle)) continue;
      return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);
    } catch {
      // gone
    }
  }
  return null;
}

/**
 * CPU seconds used by the processes whose command line contains one of `needles` (PostgreSQL backends show their
 * database), ended ones included: a backend closed by its pool's idle timeout takes its CPU time with it, so each
 * process's last reading is kept (sampled every 250 ms and on every call; what a process used in its last 250 ms
 * before ending can be missed).
 */
export function commandsCpuTracker(needles: string[]): { seconds(): number; stop(): void } {
  const lastSeen = new Map<string, number>(); // pid and start time (pids are reused) → CPU seconds
  const sample = () => {
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        if (!needles.some((needle) => command.includes(needle))) continue;
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        lastSeen.set(`${pid}@${fields[19]}`, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
      } catch {
        // gone
      }
    }
  };
  const timer = setInterval(sample, 250).unref();
  return {
    seconds: () => {
      sample();
      return [...lastSeen.values()].reduce((a, b) => a + b, 0);
    },
    stop: () => clearInterval(timer),
  };
}

/** Resident memory in MB of all the processes in the given process groups together (VmRSS, from /proc). */
export function rssMbOfGroups(pgids: number[]): number {
  let kb = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const pgrp = Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2]);
      if (!pgids.includes(pgrp)) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}
