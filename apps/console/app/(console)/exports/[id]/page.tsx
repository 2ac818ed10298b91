import Link from 'next/link';
import { notFound } from 'next/navigation';
import { foundOrNotFound } from '../../../../src/not-found';
import { Flex, Heading, Text } from '@radix-ui/themes';
import { retrieveDocumentExport } from '@cfdi/services';
import { formatDateTime, formatInteger } from '../../../../src/i18n/format';
import { currentLocale } from '../../../../src/i18n/locale';
import { em } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';

export const dynamic = 'force-dynamic';

/** One export built in the background: its progress while it runs (the page reloads itself), then its download. */
export default async function ExportPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  if (!scope) notFound();
  const job = await foundOrNotFound(retrieveDocumentExport(await em(), scope, id));
  const percent = job.total > 0 ? Math.floor((job.processed / job.total) * 100) : 100;
  return (
    <Flex direction="column" gap="3">
      {/* Reloaded every 2 s while it runs: no script, so it works as plainly as the rest of the console. */}
      {job.status === 'running' && <meta httpEquiv="refresh" content="2" />}
      <Heading as="h1">
        {t.exportTitle} {job.format.toUpperCase()}
      </Heading>
      <Text size="2">{t.exportStarted}</Text>
      <Text data-testid="export-status" data-status={job.status}>
        {t.exportStatus[job.status]}
      </Text>
      <label className="field">
        {t.exportProcessed}: {formatInteger(job.processed, locale)} / {formatInteger(job.total, locale)}
        <progress max={100} value={percent} data-testid="export-progress" />
      </label>
      <Text size="2">{formatDateTime(job.created_at, locale)}</Text>
      {job.status === 'ready' && (
        <a href={`/exports/${job.id}/download`} data-testid="export-download">
          {t.exportDownload} ({formatInteger(Math.ceil(Number(job.bytes) / 1024), locale)} KB)
        </a>
      )}
      {job.status === 'failed' && <Text color="red">{job.error}</Text>}
      <Link href="/exports">{t.exportsTitle}</Link>
    </Flex>
  );
}
