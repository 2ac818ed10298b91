import Link from 'next/link';
import { Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listDocumentExports, type DocumentExportRow } from '@cfdi/services';
import { formatDateTime, formatInteger } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

export const dynamic = 'force-dynamic';

/** The account's latest exports built in the background, newest first. */
export default async function ExportsPage() {
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const rows: DocumentExportRow[] = scope ? await listDocumentExports(await em(), scope) : [];
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.exportsTitle}</Heading>
      {rows.length === 0 && <Text>{t.noExports}</Text>}
      {rows.length > 0 && (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.exportTitle}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.exportFormat}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t.exportProcessed}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id}>
                <Table.Cell>
                  <Link href={`/exports/${row.id}`}>{formatDateTime(row.created_at, locale)}</Link>
                </Table.Cell>
                <Table.Cell>{row.format.toUpperCase()}</Table.Cell>
                <Table.Cell>{t.exportStatus[row.status]}</Table.Cell>
                <Table.Cell justify="end">
                  {formatInteger(row.processed, locale)} / {formatInteger(row.total, locale)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
