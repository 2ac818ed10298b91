import type { CliContext } from './context';

/** A listing command's output: with --json the rows as objects, else one line a row, or a sentence when none. */
export function printRows<Row>(
  ctx: CliContext,
  rows: Row[],
  json: boolean | undefined,
  show: { json: (row: Row) => unknown; line: (row: Row) => string; none: string },
): void {
  if (json) return ctx.print(rows.map(show.json), true);
  if (!rows.length) return ctx.print(show.none, false);
  for (const row of rows) ctx.print(show.line(row), false);
}
