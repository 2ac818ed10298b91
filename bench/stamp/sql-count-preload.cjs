// Loaded by the stamp bench into each platform process it starts (`node --require`): counts the statements the
// process sends to PostgreSQL, BEGIN and COMMIT included, by wrapping `pg.Client#query` of every copy of `pg` the
// process can load (MikroORM has its own). The count is written to $BENCH_SQL_COUNT_FILE on SIGWINCH, and each
// statement's text appended to $BENCH_SQL_LOG if set. A counter in the process costs nothing measurable; the TCP
// proxy used before cost the bench process CPU on every message, on the same two cores as the platform.
const fs = require('node:fs');
const path = require('node:path');

// `--require` also runs in the process's worker threads (Temporal's workflow threads): only the main thread counts.
const countFile = require('node:worker_threads').isMainThread ? process.env.BENCH_SQL_COUNT_FILE : undefined;
const logFile = process.env.BENCH_SQL_LOG;
const role = process.env.BENCH_ROLE ?? 'process';
let statements = 0;

function resolveFrom(dir) {
  try {
    return require.resolve('pg', { paths: [dir] });
  } catch {
    return null;
  }
}
const cwd = process.cwd();
const copies = new Set(
  [
    resolveFrom(cwd),
    resolveFrom(path.dirname(require.resolve('@mikro-orm/postgresql', { paths: [cwd] }))),
  ].filter(Boolean),
);
for (const entry of copies) {
  const Client = require(entry).Client;
  const query = Client.prototype.query;
  Client.prototype.query = function countedQuery(config, ...rest) {
    statements++;
    if (logFile)
      fs.appendFileSync(
        logFile,
        `${role}: ${String(typeof config === 'string' ? config : config?.text).replace(/\s+/g, ' ')}\n`,
      );
    return query.call(this, config, ...rest);
  };
}
// Written only when the bench asks (SIGWINCH: ignored by default, and unlike SIGUSR2 not one of the Temporal
// runtime's shutdown signals), before and after each run: a periodic write would cost the process
// CPU during the run.
if (countFile) process.on('SIGWINCH', () => fs.writeFileSync(countFile, String(statements)));
