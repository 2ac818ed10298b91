import Link from 'next/link';
import { Button, Flex, Heading, Table } from '@radix-ui/themes';
import {
  countReceipts,
  listConsoleMerchants,
  listReceipts,
  RECEIPT_STATUSES,
  type CountedPage,
  type ReceiptListQuery,
  type ReceiptStatus,
  type ReceiptView,
} from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { ListTable, listWindow } from '../../../src/list-table';
import { Problem, problemOf } from '../../../src/problem';
import { receiptContext } from '../../../src/records-context';
import { param, type SearchParams } from '../../../src/search-params';
import { currentWorkspace } from '../../../src/workspace';
import { ReceiptStatusBadge } from './receipt-status';

export default async function ReceiptsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const window = listWindow(params);
  // The URL's values as the services' filters; the services check them (an unknown status finds nothing).
  const status = param(params, 'status');
  const filter: Omit<ReceiptListQuery, 'limit'> = {
    merchantId: param(params, 'merchant'),
    status: RECEIPT_STATUSES.includes(status as ReceiptStatus) ? (status as ReceiptStatus) : undefined,
    externalId: param(params, 'externalId'),
    branch: param(params, 'branch'),
  };
  let found: CountedPage<ReceiptView> = { rows: [], total: 0, capped: false };
  let merchants: { id: string; label: string }[] = [];
  let problem: string | null = null;
  if (scope)
    await (async () => {
      const { ctx } = await receiptContext();
      const [page, count, list] = await Promise.all([
        listReceipts(ctx, scope, { ...filter, limit: window.limit, offset: window.offset }),
        countReceipts(ctx, scope, filter),
        listConsoleMerchants(ctx.em, scope, new Date()),
      ]);
      found = { rows: page.data, ...count };
      merchants = list.map((m) => ({ id: m.id, label: `${m.rfc} · ${m.legalName}` }));
    })().catch((error) => (problem = problemOf(error)));
  const merchantLabel = new Map(merchants.map((m) => [m.id, m.label]));
  const text = (name: string, label: string) => (
    <label className="field">
      {label}
      <input name={name} defaultValue={param(params, name)} />
    </label>
  );
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.receipts.receipts}</Heading>
      <form className="filters" method="get" role="search">
        <label className="field">
          {t.merchant}
          <select name="merchant" defaultValue={param(params, 'merchant') ?? ''}>
            <option value="">{t.any}</option>
            {merchants.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t.status}
          <select name="status" defaultValue={status ?? ''}>
            <option value="">{t.any}</option>
            {RECEIPT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {labelOf(t.receipts.status, s)}
              </option>
            ))}
          </select>
        </label>
        {text('externalId', t.receipts.externalId)}
        {text('branch', t.receipts.branch)}
        <Button type="submit">{t.search}</Button>
        <Link href="/receipts">{t.clear}</Link>
      </form>
      <Problem message={problem} />
      {!problem && (
        <ListTable
          list={{ path: '/receipts', params, window, t, locale }}
          page={found}
          empty={t.receipts.noReceipts}
          columns={[
            { label: t.date },
            { label: t.merchant },
            { label: t.receipts.branch },
            { label: t.total, justify: 'end' },
            { label: t.status },
            { label: t.receipts.expires },
            { label: t.receipts.invoice },
          ]}
        >
          {found.rows.map((r) => (
            <Table.Row key={r.id} data-testid={`receipt-${r.id}`}>
              <Table.Cell>
                <Link href={`/receipts/${r.id}`}>{formatDateTime(r.createdAt, locale)}</Link>
              </Table.Cell>
              <Table.Cell>{merchantLabel.get(r.merchantId) ?? r.merchantId}</Table.Cell>
              <Table.Cell>{r.branch ?? ''}</Table.Cell>
              <Table.Cell justify="end">{formatMoney(Number(r.total), locale)}</Table.Cell>
              <Table.Cell>
                <ReceiptStatusBadge status={r.status} label={labelOf(t.receipts.status, r.status)} />
              </Table.Cell>
              <Table.Cell>{formatDateTime(r.expiresAt, locale)}</Table.Cell>
              <Table.Cell>
                {r.invoiceId ? (
                  <Link href={`/documents/${r.invoiceId}`} className="mono">
                    {r.invoiceId}
                  </Link>
                ) : (
                  ''
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </ListTable>
      )}
    </Flex>
  );
}
