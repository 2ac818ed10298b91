import Link from 'next/link';
import { Badge, Button, Callout, Flex, Heading, Table } from '@radix-ui/themes';
import { apiKeysPage, type ApiKeyView, type CountedPage } from '@cfdi/services';
import { formatDateTime } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';
import { revokeKey } from './actions';
import { CreateKeyForm } from './create-key-form';
import { ListTable, listWindow } from '../../../src/list-table';
import { param, type SearchParams } from '../../../src/search-params';

export default async function KeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const window = listWindow(params);
  const keys: CountedPage<ApiKeyView> = scope
    ? await apiKeysPage(await em(), scope, window)
    : { rows: [], total: 0, capped: false };
  // "Revoke" asks first: it opens this confirmation (a plain link, so it works without JavaScript), and only its
  // button revokes. A key revoked fails every call at once and cannot be brought back.
  const revoking = keys.rows.find((k) => k.id === param(params, 'revoke') && !k.revokedAt);
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
      {revoking && (
        <Callout.Root highContrast color="red" role="alert" data-testid="revoke-confirmation">
          <Callout.Text>
            {t.revokeConfirm} <span className="mono">{revoking.displayPrefix}…</span>
            {revoking.note ? ` (${revoking.note})` : ''}
          </Callout.Text>
          <Flex gap="3" align="center" wrap="wrap">
            <form action={revokeKey}>
              <input type="hidden" name="keyId" value={revoking.id} />
              <input type="hidden" name="confirmed" value="yes" />
              <Button size="1" color="red" variant="soft" highContrast type="submit">
                {t.revokeConfirmButton}
              </Button>
            </form>
            <Link href="/keys">{t.cancelAction}</Link>
          </Flex>
        </Callout.Root>
      )}
      <ListTable
        list={{ path: '/keys', params, window, t, locale }}
        page={keys}
        empty={t.noResults}
        columns={[
          { label: t.prefix },
          { label: t.merchantsLimit },
          { label: t.note },
          { label: t.created },
          { label: t.status },
        ]}
      >
        {keys.rows.map((key) => (
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
                <Link href={`/keys?revoke=${key.id}`} aria-label={`${t.revoke} ${key.displayPrefix}…`}>
                  {t.revoke}
                </Link>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
