import { Badge, Button, Flex, Heading, Table } from '@radix-ui/themes';
import { listApiKeys } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';
import { revokeKey } from './actions';
import { CreateKeyForm } from './create-key-form';

export default async function KeysPage() {
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const keys = scope
    ? (await listApiKeys(await em(), scope.accountId)).filter((k) => k.livemode === scope.livemode)
    : [];
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.apiKeys}</Heading>
      <CreateKeyForm
        labels={{
          createKey: t.createKey,
          merchants: t.merchantIdsOptional,
          note: t.note,
          keyCreated: t.keyCreated,
        }}
      />
      <Table.Root variant="surface" size="1">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t.prefix}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.merchantsLimit}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.note}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.created}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {keys.map((key) => (
            <Table.Row key={key.id} data-testid={`key-${key.id}`}>
              <Table.Cell className="mono">{key.displayPrefix}…</Table.Cell>
              <Table.Cell>{key.merchantIds?.join(', ') ?? t.all}</Table.Cell>
              <Table.Cell>{key.note ?? ''}</Table.Cell>
              <Table.Cell>{formatDateTime(key.createdAt, locale)}</Table.Cell>
              <Table.Cell>
                {key.revokedAt ? (
                  <Badge highContrast color="gray">
                    {t.revoked}
                  </Badge>
                ) : (
                  <form action={revokeKey}>
                    <input type="hidden" name="keyId" value={key.id} />
                    <Button size="1" color="red" variant="soft" type="submit">
                      {t.revoke}
                    </Button>
                  </form>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
