import { Badge, Callout, Flex, Heading, Table } from '@radix-ui/themes';
import Link from 'next/link';
import {
  can,
  consoleMerchantsPage,
  CSD_EXPIRY_WARNING_DAYS,
  type ConsoleMerchant,
  type CountedPage,
} from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';
import { ListTable, listWindow } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';

/** The account's merchants with their CSD status; a CSD that expires within 30 days is called out above the table. */
export default async function MerchantsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope, session } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const settings = can(session.user, 'merchants.settings');
  const window = listWindow(params);
  const merchants: CountedPage<ConsoleMerchant> = scope
    ? await consoleMerchantsPage(await em(), scope, new Date(), window)
    : { rows: [], total: 0, capped: false };
  const expiring = merchants.rows.filter((m) => m.csdExpiresSoon);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.merchants}</Heading>
      {expiring.map((m) => (
        <Callout.Root key={m.id} color="orange" highContrast role="alert" data-testid={`csd-warning-${m.id}`}>
          <Callout.Text>
            {t.csdExpiresSoon} ({CSD_EXPIRY_WARNING_DAYS}): {m.rfc} · {m.legalName} · {t.validTo}{' '}
            {formatDateTime(m.csd!.validTo, locale)}
          </Callout.Text>
        </Callout.Root>
      ))}
      <ListTable
        list={{ path: '/merchants', params, window, t, locale }}
        page={merchants}
        empty={t.noResults}
        columns={[
          { label: 'RFC' },
          { label: t.merchant },
          { label: t.serie },
          { label: t.csd },
          { label: t.validTo },
          { label: t.status },
        ]}
      >
        {merchants.rows.map((m) => (
          <Table.Row key={m.id} data-testid={`merchant-${m.id}`}>
            <Table.Cell className="mono">
              {settings ? <Link href={`/merchants/${m.id}`}>{m.rfc}</Link> : m.rfc}
            </Table.Cell>
            <Table.Cell>{m.legalName}</Table.Cell>
            <Table.Cell>{m.serie}</Table.Cell>
            <Table.Cell className="mono">{m.csd?.serialNumber ?? '—'}</Table.Cell>
            <Table.Cell>{formatDateTime(m.csd?.validTo, locale)}</Table.Cell>
            <Table.Cell data-testid="csd-status">
              {!m.csd ? (
                <Badge highContrast color="gray">
                  {t.noCsd}
                </Badge>
              ) : m.csdExpiresSoon ? (
                <Badge highContrast color="orange">
                  {t.csdExpiresSoon}
                </Badge>
              ) : (
                <Badge highContrast color={m.csd.status === 'expired' ? 'red' : 'green'}>
                  {labelOf(t.csdStatus, m.csd.status)}
                </Badge>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
