import Link from 'next/link';
import { Table, Text } from '@radix-ui/themes';
import { listCustomers } from '@cfdi/services';
import { currentLocale } from '../../../src/i18n/locale';
import { catalogChoices, recordContext } from '../../../src/records-context';
import { RecordsPage } from '../../../src/record-parts';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { CustomerForm } from './customer-form';

export default async function CustomersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('records.manage');
  const q = param(await searchParams, 'q');
  const { t } = await currentLocale();
  const { ctx, scope } = await recordContext();
  const [{ data: customers }, { regimenes, usos }] = await Promise.all([
    listCustomers(ctx, scope, { limit: 100, ...(q ? { q } : {}) }),
    catalogChoices(),
  ]);
  return (
    <RecordsPage
      title={t.issue.customers}
      createTitle={t.issue.newCustomer}
      form={<CustomerForm labels={t.issue} regimenes={regimenes} usos={usos} />}
      search={{ label: t.issue.searchRecords, button: t.search }}
      q={q}
    >
      {customers.length === 0 ? (
        <Text>{t.issue.noCustomers}</Text>
      ) : (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.issue.rfc}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.legalName}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.zip}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.email}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {customers.map((c) => (
              <Table.Row key={c.id} data-testid={`customer-${c.rfc}`}>
                <Table.Cell className="mono">
                  <Link href={`/customers/${c.id}`}>{c.rfc}</Link>
                </Table.Cell>
                <Table.Cell>{c.legalName}</Table.Cell>
                <Table.Cell>{c.zip}</Table.Cell>
                <Table.Cell className="mono">{c.emails.join(', ')}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </RecordsPage>
  );
}
