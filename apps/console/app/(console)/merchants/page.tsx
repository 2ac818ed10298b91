import { Badge, Callout, Flex, Heading, Table } from '@radix-ui/themes';
import Link from 'next/link';
import { can, CSD_EXPIRY_WARNING_DAYS, listConsoleMerchants } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** The account's merchants with their CSD status; a CSD that expires within 30 days is called out above the table. */
export default async function MerchantsPage() {
  const { scope, session } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const settings = can(session.user, 'merchants.settings');
  const merchants = scope ? await listConsoleMerchants(await em(), scope, new Date()) : [];
  const expiring = merchants.filter((m) => m.csdExpiresSoon);
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
      <Table.Root variant="surface" size="1">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>RFC</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.merchant}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.serie}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.csd}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.validTo}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {merchants.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={6}>{t.noResults}</Table.Cell>
            </Table.Row>
          )}
          {merchants.map((m) => (
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
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
