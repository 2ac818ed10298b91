import { Button, Flex, Heading, Table } from '@radix-ui/themes';
import { transactionsPage, TRANSACTION_TYPES, type CountedPage, type TransactionView } from '@cfdi/services';
import { formatCentavos, formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { Problem, problemOf } from '../../../src/problem';
import { ledgerSearchFrom, param, type SearchParams } from '../../../src/search-params';
import { currentWorkspace } from '../../../src/workspace';
import { ListTable, listWindow } from '../../../src/list-table';

export default async function LedgerPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const search = ledgerSearchFrom(params);
  const window = listWindow(params);
  let found: CountedPage<TransactionView> = { rows: [], total: 0, capped: false };
  let problem: string | null = null;
  if (scope)
    found = await transactionsPage(await em(), scope, search, window).catch(
      (error) => ((problem = problemOf(error)), found),
    );
  const query = new URLSearchParams(
    Object.entries(search).filter(([, v]) => v) as [string, string][],
  ).toString();
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.ledger}</Heading>
      <form className="filters" method="get">
        <label className="field">
          {t.type}
          <select name="type" defaultValue={param(params, 'type') ?? ''}>
            <option value="">{t.any}</option>
            {TRANSACTION_TYPES.map((type) => (
              <option key={type} value={type}>
                {labelOf(t.transactionType, type)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t.from}
          <input type="date" name="from" defaultValue={search.from} />
        </label>
        <label className="field">
          {t.to}
          <input type="date" name="to" defaultValue={search.to} />
        </label>
        <label className="field">
          {t.reference}
          <input name="reference" defaultValue={search.reference} />
        </label>
        <Button type="submit">{t.search}</Button>
        <a href={`/ledger/export?${query}`} download data-testid="ledger-export">
          {t.exportCsv}
        </a>
        <a href={`/ledger/export?${query}&units=pesos`} download data-testid="ledger-export-pesos">
          {t.exportCsvPesos}
        </a>
      </form>
      <Problem message={problem} />
      {!problem && (
        <ListTable
          list={{ path: '/ledger', params, window, t, locale }}
          page={found}
          empty={t.noResults}
          columns={[
            { label: t.date },
            { label: t.type },
            { label: t.amount, justify: 'end' },
            { label: t.balanceAfter, justify: 'end' },
            { label: t.reference },
            { label: t.note },
          ]}
        >
          {found.rows.map((row) => (
            <Table.Row key={row.id}>
              <Table.Cell>{formatDateTime(row.createdAt, locale)}</Table.Cell>
              <Table.Cell>{labelOf(t.transactionType, row.type)}</Table.Cell>
              <Table.Cell justify="end">{formatCentavos(row.deltaCentavos, locale)}</Table.Cell>
              <Table.Cell justify="end">{formatCentavos(row.balanceAfterCentavos, locale)}</Table.Cell>
              <Table.Cell className="mono">{row.referenceId ?? ''}</Table.Cell>
              <Table.Cell>{row.note ?? ''}</Table.Cell>
            </Table.Row>
          ))}
        </ListTable>
      )}
    </Flex>
  );
}
