import { Flex, Heading, Table } from '@radix-ui/themes';
import { listConsoleAudit } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { ListTable, listWindow } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';

/** Every state-changing action taken in the console, newest first (admins and operators). */
export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('audit.read');
  const params = await searchParams;
  const { t, locale } = await currentLocale();
  const window = listWindow(params);
  const entries = await listConsoleAudit(await em(), {}, window);
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.audit}</Heading>
      <ListTable
        list={{ path: '/audit', params, window, t, locale }}
        page={entries}
        empty={t.noResults}
        columns={[
          { label: t.when },
          { label: t.who },
          { label: t.what },
          { label: t.target },
          { label: t.account },
          { label: t.where },
        ]}
      >
        {entries.rows.map((e) => (
          <Table.Row key={e.id} data-testid="audit-row">
            <Table.Cell>{formatDateTime(e.createdAt, locale)}</Table.Cell>
            <Table.Cell>{e.actorEmail}</Table.Cell>
            <Table.Cell className="mono">{e.action}</Table.Cell>
            <Table.Cell className="mono">{e.target ?? ''}</Table.Cell>
            <Table.Cell className="mono">{e.accountId ?? ''}</Table.Cell>
            <Table.Cell>{e.ip ?? ''}</Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
