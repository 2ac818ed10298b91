import { Badge, Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listConnectedClients } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { disconnectClient } from './actions';
import { ListTable, listWindow, pageOfList } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';

/** The signed-in user's applications connected through the OAuth consent page, each with a way to disconnect it. */
export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { user } = await requirePermission('oauth_connections.own');
  const params = await searchParams;
  const { t, locale } = await currentLocale();
  const window = listWindow(params);
  // A user's own applications: a handful, read whole and shown a page at a time.
  const clients = pageOfList(await listConnectedClients(await em(), user.id), window);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.connections}</Heading>
      <Text as="p" size="2">
        {t.connectionsIntro}
      </Text>
      <ListTable
        list={{ path: '/connections', params, window, t, locale }}
        page={clients}
        empty={t.noConnections}
        columns={[
          { label: t.application },
          { label: t.mode },
          { label: t.access },
          { label: t.merchants },
          { label: t.created },
          { label: t.lastUsed },
          { label: null, ariaLabel: t.disconnect },
        ]}
      >
        {clients.rows.map((client) => (
          <Table.Row key={client.grantId} data-testid={`connection-${client.grantId}`}>
            <Table.Cell>{client.clientName ?? client.clientId}</Table.Cell>
            <Table.Cell>{client.livemode ? t.live : t.test}</Table.Cell>
            <Table.Cell>
              <Badge color={client.canWrite ? 'orange' : 'gray'} highContrast>
                {client.canWrite ? t.readWrite : t.readOnly}
              </Badge>
            </Table.Cell>
            <Table.Cell className="mono">{client.merchantIds?.join(', ') ?? t.all}</Table.Cell>
            <Table.Cell>{formatDateTime(client.createdAt, locale)}</Table.Cell>
            <Table.Cell>{formatDateTime(client.lastUsedAt, locale)}</Table.Cell>
            <Table.Cell>
              <form action={disconnectClient}>
                <input type="hidden" name="grantId" value={client.grantId} />
                <Button size="1" color="red" variant="soft" type="submit">
                  {t.disconnect}
                </Button>
              </form>
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
