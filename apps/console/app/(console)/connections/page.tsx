import { Badge, Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listConnectedClients } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { disconnectClient } from './actions';

/** The signed-in user's applications connected through the OAuth consent page, each with a way to disconnect it. */
export default async function ConnectionsPage() {
  const { user } = await requirePermission('oauth_connections.own');
  const { t, locale } = await currentLocale();
  const clients = await listConnectedClients(await em(), user.id);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.connections}</Heading>
      <Text as="p" size="2">
        {t.connectionsIntro}
      </Text>
      {clients.length === 0 ? (
        <Text as="p" color="gray">
          {t.noConnections}
        </Text>
      ) : (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.application}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.mode}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.access}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.merchants}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.created}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.lastUsed}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell aria-label={t.disconnect} />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {clients.map((client) => (
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
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
