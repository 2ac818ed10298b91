import { PassThrough } from 'node:stream';
import { createProgressReporter, formatSummary } from './progress-reporter';

test('without a TTY, progress is one plain line per step', () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  const reporter = createProgressReporter(stream as unknown as NodeJS.WriteStream);
  reporter.onProgress({ phase: 'read', source: '/sat' });
  reporter.onProgress({ phase: 'stage', catalog: 'units', done: 0, total: 2 });
  reporter.onProgress({ phase: 'stage', catalog: 'units', done: 2, total: 2 });
  reporter.onProgress({ phase: 'merge', catalog: 'units', total: 2 });
  reporter.onProgress({
    phase: 'done',
    result: { catalog: 'units', rows: 2, added: 1, changed: 1, removed: 0 },
  });
  reporter.stop();
  expect(text).toBe('reading /sat\nunits: staged 2/2\nunits: merging\nunits 2 rows (+1 ~1 -0)\n');
});

test('the summary is one line with totals and every catalog', () => {
  const summary = formatSummary({
    source: '/sat',
    durationMs: 1234,
    catalogs: [
      { catalog: 'meses', rows: 18, added: 18, changed: 0, removed: 0 },
      { catalog: 'units', rows: 2418, added: 0, changed: 2, removed: 1 },
    ],
  });
  expect(summary).toBe(
    'Imported 2 catalogs in 1.2 s: 18 added, 2 changed, 1 removed — meses 18 rows (+18 ~0 -0), units 2418 rows (+0 ~2 -1)',
  );
});
