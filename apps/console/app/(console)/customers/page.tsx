import Link from 'next/link';
import { Table } from '@radix-ui/themes';
import { countCustomers, listCustomers } from '@cfdi/services';
import { catalogChoices, recordsListing } from '../../../src/records-context';
import { RecordsPage } from '../../../src/record-parts';
import { ListTable } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';
import { CustomerForm } from './customer-form';

export default async function CustomersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const {
    params,
    q,
    window,
    t,
    locale,
    rows: customers,
    count,
    extra: { regimenes, usos },
  } = await recordsListing(searchParams, { list: listCustomers, count: countCustomers }, catalogChoices);
  return (
    <RecordsPage
      title={t.issue.customers}
      createTitle={t.issue.newCustomer}
      form={<CustomerForm labels={t.issue} regimenes={regimenes} usos={usos} />}
      search={{ label: t.issue.searchRecords, button: t.search }}
      q={q}
    >
      <ListTable
        list={{ path: '/customers', params, window, t, locale }}
        page={{ rows: customers, ...count }}
        empty={t.issue.noCustomers}
        columns={[
          { label: t.issue.rfc },
          { label: t.issue.legalName },
          { label: t.issue.zip },
          { label: t.email },
        ]}
      >
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
      </ListTable>
    </RecordsPage>
  );
}
