import Link from 'next/link';
import type { ReactNode } from 'react';
import { Flex, Table, Text } from '@radix-ui/themes';
import type { CountedPage, ListWindow } from '@cfdi/services';
import { formatInteger } from './i18n/format';
import type { Locale, Messages } from './i18n/messages';
import { param, type SearchParams } from './search-params';

/** Rows per page of every console list. */
export const PAGE_SIZE = 50;
/** Pages past this are page 1 (with COUNT_CAP rows counted, a list shows at most 200 pages of 50 anyway). */
const MAX_PAGE = 10_000;

/** The numbered page a list shows, from the URL's `page` (1 when absent or not a page number). */
export interface ListPage extends ListWindow {
  page: number;
}

export function listWindow(params: SearchParams, size = PAGE_SIZE): ListPage {
  const n = Number(param(params, 'page'));
  const page = Number.isInteger(n) && n >= 1 && n <= MAX_PAGE ? n : 1;
  return { page, limit: size, offset: (page - 1) * size };
}

/** A page of a list the services return whole because it is small by design (an account's webhook endpoints…). */
export function pageOfList<Row>(rows: Row[], window: ListWindow): CountedPage<Row> {
  return {
    rows: rows.slice(window.offset, window.offset + window.limit),
    total: rows.length,
    capped: false,
  };
}

export interface Column {
  label: ReactNode;
  justify?: 'end';
  /** The header's name when it shows none (a column of buttons). */
  ariaLabel?: string;
}

type ListTexts = Pick<
  Messages,
  'rangeOf' | 'moreThan' | 'results' | 'pagination' | 'previous' | 'next' | 'pageN'
>;

/** An action's outcome in the URL (`?done=…`) belongs to the page it was taken on, not to the next one. */
const NOT_KEPT = new Set(['page', 'refused', 'done', 'updated']);

/** Where the list is and how to say it: the page, the URL's other parameters (kept by the page links), the texts. */
export interface ListContext {
  path: string;
  params: SearchParams;
  window: ListPage;
  t: ListTexts;
  locale: Locale;
}

/**
 * Every console list: "51–100 of 123 results", the page's rows as a table, or `empty` when there are none, and
 * previous / next links that keep the filters. `children` are the page's `Table.Row`s.
 */
export function ListTable<Row>({
  columns,
  label,
  testId,
  children,
  ...frame
}: {
  list: ListContext;
  page: CountedPage<Row>;
  columns: Column[];
  empty: ReactNode;
  /** The table's accessible name when a page holds several tables. */
  label?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <ListFrame {...frame} label={label}>
      <DataTable columns={columns} label={label} testId={testId}>
        {children}
      </DataTable>
    </ListFrame>
  );
}

/** The console's table: its header from `columns`, `children` its rows (a list's, or a short fixed set). */
export function DataTable({
  columns,
  label,
  testId,
  children,
}: {
  columns: Column[];
  label?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Table.Root variant="surface" size="1" aria-label={label} data-testid={testId}>
      <Table.Header>
        <Table.Row>
          {columns.map((column, i) => (
            <Table.ColumnHeaderCell key={i} justify={column.justify} aria-label={column.ariaLabel}>
              {column.label}
            </Table.ColumnHeaderCell>
          ))}
        </Table.Row>
      </Table.Header>
      <Table.Body>{children}</Table.Body>
    </Table.Root>
  );
}

/** A list shown some other way than a table (the reconciliation queue's cards): the same count and page links. */
export function ListFrame<Row>({
  list,
  page,
  empty,
  label,
  children,
}: {
  list: ListContext;
  page: CountedPage<Row>;
  empty: ReactNode;
  label?: string;
  children: ReactNode;
}) {
  const { window, t, locale } = list;
  const last = window.offset + page.rows.length;
  const hasMore = last < page.total || (page.capped && page.rows.length === window.limit);
  const total = `${page.capped ? `${t.moreThan} ` : ''}${formatInteger(page.total, locale)}`;
  return (
    <Flex direction="column" gap="2">
      {page.rows.length === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <>
          <Text size="2" data-testid="list-count">
            {formatInteger(window.offset + 1, locale)}–{formatInteger(last, locale)} {t.rangeOf} {total}{' '}
            {t.results}
          </Text>
          {children}
        </>
      )}
      {(window.page > 1 || hasMore) && (
        <nav aria-label={label ? `${t.pagination}: ${label}` : t.pagination} className="pagination">
          {window.page > 1 && (
            <Link href={pageHref(list, window.page - 1)} rel="prev" data-testid="page-previous">
              ← {t.previous}
            </Link>
          )}
          <Text size="2">
            {t.pageN} {formatInteger(window.page, locale)}
          </Text>
          {hasMore && (
            <Link href={pageHref(list, window.page + 1)} rel="next" data-testid="page-next">
              {t.next} →
            </Link>
          )}
        </nav>
      )}
    </Flex>
  );
}

/** The list's URL at page `n`, with every other parameter of the current one. */
export function pageHref(list: Pick<ListContext, 'path' | 'params'>, n: number): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(list.params)) {
    if (NOT_KEPT.has(name) || typeof value !== 'string') continue;
    query.set(name, value);
  }
  if (n > 1) query.set('page', String(n));
  const text = query.toString();
  return text ? `${list.path}?${text}` : list.path;
}
