import Link from 'next/link';
import { Flex, Heading, Table, Text } from '@radix-ui/themes';
import { AGING_BUCKETS, receivablesAging, type ReceivableAging } from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';
import { ListTable, listWindow, pageOfList } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';

/** What customers owe on PPD invoices, per receiver RFC, aged by days since issue (policy in the services). */
export default async function ReceivablesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const window = listWindow(params);
  // One grouped row per customer, summed in SQL: shown a page at a time.
  const aging = pageOfList<ReceivableAging>(scope ? await receivablesAging(await em(), scope) : [], window);
  const money = (pesos: string) => formatMoney(Number(pesos), locale);
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.receivables}</Heading>
      <Link href="/documents?balance=1">{t.openInvoices} →</Link>
      <Heading as="h2" size="4">
        {t.agingTitle}
      </Heading>
      <ListTable
        list={{ path: '/receivables', params, window, t, locale }}
        page={aging}
        empty={t.noReceivables}
        testId="aging"
        columns={[
          { label: t.customerColumn },
          { label: t.invoiceCount, justify: 'end' },
          ...AGING_BUCKETS.map((b) => ({ label: t.agingBucket[b.key], justify: 'end' as const })),
          { label: t.outstandingBalance, justify: 'end' },
        ]}
      >
        {aging.rows.map((row) => (
          <Table.Row key={row.rfc} data-testid={`aging-${row.rfc}`}>
            <Table.Cell>
              <Link href={`/documents?balance=1&receiver=${encodeURIComponent(row.rfc)}`}>{row.name}</Link>
              <br />
              <Text size="1" className="mono">
                {row.rfc}
              </Text>
            </Table.Cell>
            <Table.Cell justify="end">{row.invoices}</Table.Cell>
            {AGING_BUCKETS.map((b) => (
              <Table.Cell key={b.key} justify="end" data-testid={`aging-${b.key}`}>
                {money(row.buckets[b.key])}
              </Table.Cell>
            ))}
            <Table.Cell justify="end" data-testid="aging-total">
              {money(row.total)}
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
