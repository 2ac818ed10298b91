import Link from 'next/link';
import { Flex, Heading, Table, Text } from '@radix-ui/themes';
import { AGING_BUCKETS, receivablesAging, type ReceivableAging } from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** What customers owe on PPD invoices, per receiver RFC, aged by days since issue (policy in the services). */
export default async function ReceivablesPage() {
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const rows: ReceivableAging[] = scope ? await receivablesAging(await em(), scope) : [];
  const money = (pesos: string) => formatMoney(Number(pesos), locale);
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.receivables}</Heading>
      <Link href="/documents?balance=1">{t.openInvoices} →</Link>
      <Heading as="h2" size="4">
        {t.agingTitle}
      </Heading>
      {rows.length === 0 && <Text>{t.noReceivables}</Text>}
      {rows.length > 0 && (
        <Table.Root variant="surface" size="1" data-testid="aging">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.customerColumn}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t.invoiceCount}</Table.ColumnHeaderCell>
              {AGING_BUCKETS.map((b) => (
                <Table.ColumnHeaderCell key={b.key} justify="end">
                  {t.agingBucket[b.key]}
                </Table.ColumnHeaderCell>
              ))}
              <Table.ColumnHeaderCell justify="end">{t.outstandingBalance}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.rfc} data-testid={`aging-${row.rfc}`}>
                <Table.Cell>
                  <Link href={`/documents?balance=1&receiver=${encodeURIComponent(row.rfc)}`}>
                    {row.name}
                  </Link>
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
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
