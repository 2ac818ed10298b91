import cliProgress from 'cli-progress';
import type { CatalogImportResult, ImportProgress, ImportResult } from './import-catalogs';

export interface ProgressReporter {
  onProgress(event: ImportProgress): void;
  /** Stops any bar still drawn (call on failure too, or the terminal keeps a hidden cursor). */
  stop(): void;
}

/** One bar per catalog on a TTY; on pipes and in CI, one plain line per step. */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  return stream.isTTY ? barReporter(stream) : lineReporter(stream);
}

function formatCatalogResult(r: CatalogImportResult): string {
  return `${r.catalog} ${r.rows} rows (+${r.added} ~${r.changed} -${r.removed})`;
}

/** The one-line summary printed after an import. */
export function formatSummary(result: ImportResult): string {
  const totals = result.catalogs.reduce(
    (t, r) => ({ added: t.added + r.added, changed: t.changed + r.changed, removed: t.removed + r.removed }),
    {
      added: 0,
      changed: 0,
      removed: 0,
    },
  );
  return (
    `Imported ${result.catalogs.length} catalogs in ${(result.durationMs / 1000).toFixed(1)} s: ` +
    `${totals.added} added, ${totals.changed} changed, ${totals.removed} removed — ${result.catalogs.map(formatCatalogResult).join(', ')}`
  );
}

function lineReporter(stream: NodeJS.WritableStream): ProgressReporter {
  const write = (line: string) => stream.write(`${line}\n`);
  return {
    onProgress(event) {
      if (event.phase === 'read') write(`reading ${event.source}`);
      else if (event.phase === 'stage' && event.done > 0)
        write(`${event.catalog}: staged ${event.done}/${event.total}`);
      else if (event.phase === 'merge') write(`${event.catalog}: merging`);
      else if (event.phase === 'done') write(formatCatalogResult(event.result));
    },
    stop() {},
  };
}

function barReporter(stream: NodeJS.WriteStream): ProgressReporter {
  let bar: cliProgress.SingleBar | null = null;
  const stop = () => {
    bar?.stop();
    bar = null;
  };
  return {
    onProgress(event) {
      if (event.phase === 'read') {
        stream.write(`reading ${event.source}\n`);
      } else if (event.phase === 'stage') {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              format: '{catalog} [{bar}] {value}/{total} {step}',
              stream,
              hideCursor: true,
              clearOnComplete: true,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(event.total, 0, { catalog: event.catalog.padEnd(18), step: 'staging' });
        }
        bar.update(event.done);
      } else if (event.phase === 'merge') {
        bar?.update({ step: 'merging' });
      } else {
        stop();
        stream.write(`${formatCatalogResult(event.result)}\n`);
      }
    },
    stop,
  };
}
