import { Flex, Heading, Table } from '@radix-ui/themes';
import { listConsoleAudit } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';

/** Every state-changing action taken in the console, newest first (admins and operators). */
export default async function AuditPage() {
  await requirePermission('audit.read');
  const { t, locale } = await currentLocale();
  const entries = await listConsoleAudit(await em(), { limit: 200 });
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.audit}</Heading>
      <Table.Root variant="surface" size="1">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t.when}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.who}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.what}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.target}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.account}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.where}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {entries.map((e) => (
            <Table.Row key={e.id} data-testid="audit-row">
              <Table.Cell>{formatDateTime(e.createdAt, locale)}</Table.Cell>
              <Table.Cell>{e.actorEmail}</Table.Cell>
              <Table.Cell className="mono">{e.action}</Table.Cell>
              <Table.Cell className="mono">{e.target ?? ''}</Table.Cell>
              <Table.Cell className="mono">{e.accountId ?? ''}</Table.Cell>
              <Table.Cell>{e.ip ?? ''}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
