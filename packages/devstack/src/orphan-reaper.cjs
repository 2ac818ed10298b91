// The supervisor's orphan reaper (supervisor.ts): a plain Node process in a session of its own, started once per
// supervisor with a pipe on its stdin. The supervisor writes "+<pgid>" for each child process group it starts and
// "-<pgid>" when one is gone. When the pipe closes, however the supervisor ended (even SIGKILL, which no handler
// sees), the groups still listed get SIGTERM, then SIGKILL after the grace period; then the reaper exits.
// Usage: node orphan-reaper.cjs <graceMs>
'use strict';
const readline = require('node:readline');

const graceMs = Number(process.argv[2] ?? 8000);
const groups = new Set();
// Its own session: the terminal's Ctrl-C and hang-up never reach it, only the pipe's end does.
for (const signal of ['SIGINT', 'SIGHUP', 'SIGPIPE']) process.on(signal, () => undefined);

const signalGroup = (pgid, signal) => {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // gone
  }
};

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line[0] === '+') groups.add(pgid);
  else if (line[0] === '-') groups.delete(pgid);
});

process.stdin.on('close', () => {
  const left = [...groups].filter((pgid) => signalGroup(pgid, 'SIGTERM'));
  const deadline = Date.now() + graceMs;
  const poll = setInterval(() => {
    const alive = left.filter((pgid) => signalGroup(pgid, 0));
    if (alive.length && Date.now() < deadline) return;
    for (const pgid of alive) signalGroup(pgid, 'SIGKILL');
    clearInterval(poll);
    process.exit(0);
  }, 100);
});
