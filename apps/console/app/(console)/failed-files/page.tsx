import { Button, Callout, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listFailedFiles } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import type { SearchParams } from '../../../src/search-params';
import { renderAgain } from './actions';

/** Stamped documents whose files failed after every retry, platform-wide (`cfdi files failed`), each with "render again". */
export default async function FailedFilesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('files.render_again');
  const { t, locale } = await currentLocale();
  const { refused, done } = await searchParams;
  const rows = await listFailedFiles(await em());
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.failedFiles}</Heading>
      {typeof refused === 'string' && (
        <Callout.Root highContrast color="red" role="alert">
          <Callout.Text data-testid="render-refused">{refused}</Callout.Text>
        </Callout.Root>
      )}
      {typeof done === 'string' && (
        <Callout.Root highContrast color="green" role="status">
          <Callout.Text data-testid="render-done">
            {t.renderRequested} {done}
          </Callout.Text>
        </Callout.Root>
      )}
      {rows.length === 0 && <Text>{t.noResults}</Text>}
      {rows.length > 0 && (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.documents}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.uuid}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.account}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.mode}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.waitingSince}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.renderAgain}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id} data-testid={`failed-${row.id}`}>
                <Table.Cell className="mono">{row.id}</Table.Cell>
                <Table.Cell className="mono">{row.uuid}</Table.Cell>
                <Table.Cell className="mono">{row.account_id}</Table.Cell>
                <Table.Cell>{row.livemode ? t.live : t.test}</Table.Cell>
                <Table.Cell>{formatDateTime(row.updated_at, locale)}</Table.Cell>
                <Table.Cell>
                  <form action={renderAgain}>
                    <input type="hidden" name="documentId" value={row.id} />
                    <Button size="1" variant="soft" type="submit" aria-label={`${t.renderAgain} ${row.id}`}>
                      {t.renderAgain}
                    </Button>
                  </form>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
