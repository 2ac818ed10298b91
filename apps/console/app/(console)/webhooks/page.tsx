import { Badge, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listConsoleWebhooks } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';
import { DataTable, ListFrame, listWindow, pageOfList } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';

/** The account's webhook endpoints and each one's latest delivery attempts, read-only (the API manages them). */
export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  // Endpoints receive every merchant's events: a user limited to some merchants does not see them, as in the API.
  if (scope?.merchantIds)
    return (
      <Flex direction="column" gap="4">
        <Heading as="h1">{t.webhooks}</Heading>
        <Text>{t.notAllowed}</Text>
      </Flex>
    );
  const window = listWindow(params);
  // At most MAX_WEBHOOK_ENDPOINTS (16) per account and mode: read whole, shown a page at a time.
  const webhooks = pageOfList(scope ? await listConsoleWebhooks(await em(), scope) : [], window);
  return (
    <Flex direction="column" gap="5">
      <Heading as="h1">{t.webhooks}</Heading>
      <ListFrame list={{ path: '/webhooks', params, window, t, locale }} page={webhooks} empty={t.noResults}>
        {webhooks.rows.map(({ endpoint, attempts }) => (
          <Flex key={endpoint.id} direction="column" gap="2" data-testid={`endpoint-${endpoint.id}`}>
            <Heading as="h2" size="3">
              <span className="mono">{endpoint.url}</span>{' '}
              {endpoint.disabled ? (
                <Badge highContrast color="gray">
                  {t.disabled}
                  {endpoint.disabledReason ? ` (${labelOf(t.disabledReason, endpoint.disabledReason)})` : ''}
                </Badge>
              ) : endpoint.failingSince ? (
                // Deliveries keep failing: still enabled (disabled after 3 days), but not working.
                <Badge highContrast color="red" data-testid="endpoint-status">
                  {t.failingSince} {formatDateTime(endpoint.failingSince, locale)}
                </Badge>
              ) : (
                <Badge highContrast color="green" data-testid="endpoint-status">
                  {t.active}
                </Badge>
              )}
            </Heading>
            <Text size="1">
              {endpoint.description ?? ''} · {t.events}:{' '}
              {endpoint.enabledEvents.map((type) => labelOf(t.webhookEvent, type)).join(', ')} ·{' '}
              <span className="mono">{endpoint.id}</span>
            </Text>
            <DataTable
              label={`${t.attempts} ${endpoint.url}`}
              columns={[
                { label: t.when },
                { label: t.events },
                { label: 'HTTP' },
                { label: 'ms' },
                { label: t.status },
              ]}
            >
              {attempts.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={5}>{t.noResults}</Table.Cell>
                </Table.Row>
              )}
              {attempts.map((a) => (
                <Table.Row key={a.id} data-testid="webhook-attempt">
                  <Table.Cell>{formatDateTime(a.createdAt, locale)}</Table.Cell>
                  <Table.Cell className="mono">{a.eventId}</Table.Cell>
                  <Table.Cell className="mono">{a.statusCode ?? '—'}</Table.Cell>
                  <Table.Cell>{a.durationMs}</Table.Cell>
                  <Table.Cell>
                    <Badge highContrast color={a.succeeded ? 'green' : 'red'}>
                      {labelOf(t.webhookAttempt, a.succeeded ? 'succeeded' : 'failed')}
                    </Badge>
                    {a.error && (
                      <Text size="1" color="gray">
                        {' '}
                        {a.error}
                      </Text>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </DataTable>
          </Flex>
        ))}
      </ListFrame>
    </Flex>
  );
}
