import Link from 'next/link';
import { Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import {
  SEARCH_KINDS,
  DOCUMENT_STATUSES,
  countDocuments,
  documentAmount,
  searchDocuments,
  type CountedPage,
  type DocumentRow,
} from '@cfdi/services';
import { DocumentStatusBadge, kindOf } from '../../../src/document-labels';
import { formatDateTime, formatMoney, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { Problem, problemOf } from '../../../src/problem';
import { documentSearchFrom, param, type SearchParams } from '../../../src/search-params';
import { currentWorkspace } from '../../../src/workspace';
import { ListTable, listWindow } from '../../../src/list-table';
import { ExportLinks } from './export-links';

export default async function DocumentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  // Numbered pages (`page`), not the API's cursor: a page shows where it is in the count and links back.
  const search = { ...documentSearchFrom(params), startingAfter: undefined };
  const window = listWindow(params);
  let found: CountedPage<DocumentRow> = { rows: [], total: 0, capped: false };
  let problem: string | null = null;
  if (scope)
    found = await (async () => {
      const db = await em();
      const page = await searchDocuments(db, scope, search, window.limit, window.offset);
      // The first page shorter than a page is the whole list: no count query.
      if (window.offset === 0 && !page.hasMore)
        return { rows: page.rows, total: page.rows.length, capped: false };
      return { rows: page.rows, ...(await countDocuments(db, scope, search)) };
    })().catch((error) => ((problem = problemOf(error)), found));
  const exportQuery = new URLSearchParams(
    Object.entries(params).filter(([k, v]) => k !== 'after' && k !== 'page' && typeof v === 'string') as [
      string,
      string,
    ][],
  ).toString();
  const text = (name: string, label: string, type = 'text') => (
    <label className="field">
      {label}
      <input name={name} type={type} defaultValue={param(params, name)} />
    </label>
  );
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.documents}</Heading>
      {/* Option values stay the machine values: the URL, and so links and bookmarks, mean the same in both languages. */}
      <form className="filters" method="get" role="search">
        {text('uuid', t.uuid)}
        {text('receiver', t.receiver)}
        {text('serie', t.serie)}
        {text('folio', t.folio)}
        <label className="field">
          {t.status}
          <select name="status" defaultValue={param(params, 'status') ?? ''}>
            <option value="">{t.any}</option>
            {DOCUMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {labelOf(t.documentStatus, s)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t.kind}
          <select name="kind" defaultValue={param(params, 'kind') ?? ''}>
            <option value="">{t.any}</option>
            {SEARCH_KINDS.map((k) => (
              <option key={k} value={k}>
                {labelOf(t.documentKind, k)}
              </option>
            ))}
          </select>
        </label>
        {text('merchant', t.merchant)}
        {text('from', t.from, 'date')}
        {text('to', t.to, 'date')}
        {text('min', t.minTotal)}
        {text('max', t.maxTotal)}
        <label className="checkbox">
          <input type="checkbox" name="balance" value="1" defaultChecked={param(params, 'balance') === '1'} />
          {t.withBalance}
        </label>
        <Button type="submit">{t.search}</Button>
        <Link href="/documents">{t.clear}</Link>
      </form>
      <ExportLinks query={exportQuery} t={t} />
      <Problem message={problem} />
      {!problem && (
        <ListTable
          list={{ path: '/documents', params, window, t, locale }}
          page={found}
          empty={t.noResults}
          columns={[
            { label: `${t.serie}-${t.folio}` },
            { label: t.receiver },
            { label: t.status },
            { label: t.uuid },
            { label: t.total, justify: 'end' },
            { label: t.date },
          ]}
        >
          {found.rows.map((row) => (
            <Table.Row key={row.id} data-testid={`document-${row.id}`}>
              <Table.Cell>
                <Link href={`/documents/${row.id}`}>
                  {row.serie}-{row.folio_text ?? row.folio}
                </Link>{' '}
                <Text size="1" color="gray">
                  {labelOf(t.documentKind, kindOf(row))}
                </Text>
              </Table.Cell>
              <Table.Cell>
                {row.receiver.name}
                <br />
                <Text size="1" className="mono">
                  {row.receiver.rfc}
                </Text>
              </Table.Cell>
              <Table.Cell>
                <DocumentStatusBadge row={row} t={t} testId="document-status" />
              </Table.Cell>
              <Table.Cell className="mono">{row.uuid ?? '—'}</Table.Cell>
              <Table.Cell justify="end">
                {formatMoney(Number(documentAmount(row)), locale, row.currency)}
                {row.saldo_pendiente !== null && row.type === 'invoice' && (
                  <Text as="div" size="1" color="gray" data-testid="document-balance">
                    {t.outstandingBalance}: {formatMoney(Number(row.saldo_pendiente), locale, row.currency)}
                  </Text>
                )}
              </Table.Cell>
              <Table.Cell>{formatDateTime(row.created_at as string, locale)}</Table.Cell>
            </Table.Row>
          ))}
        </ListTable>
      )}
    </Flex>
  );
}
