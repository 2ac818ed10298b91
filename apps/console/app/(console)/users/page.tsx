import { Badge, Button, Callout, Flex, Heading, Table } from '@radix-ui/themes';
import { listAccountsForConsole, listConsoleUsers, listMerchantChoices } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import type { SearchParams } from '../../../src/search-params';
import { disableUser } from './actions';
import { EditUserForm } from './edit-user-form';
import { CreateUserForm, ResetPasswordForm } from './user-forms';

/** Console users (admins only): create with a generated password, edit role, mode and merchants, reset the password, disable (which ends their sessions). */
export default async function UsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { user: me } = await requirePermission('console_users.manage');
  const { t, locale } = await currentLocale();
  const { refused, updated } = await searchParams;
  const [users, accounts] = await Promise.all([
    listConsoleUsers(await em()),
    listAccountsForConsole(await em()),
  ]);
  const accountIds = [
    ...new Set([...accounts.map((a) => a.id), ...users.flatMap((u) => (u.accountId ? [u.accountId] : []))]),
  ];
  const merchants = await listMerchantChoices(await em(), accountIds);
  const editLabels = {
    edit: t.edit,
    role: t.role,
    roles: t.consoleRole,
    mode: t.mode,
    any: t.any,
    test: t.test,
    live: t.live,
    limitToMerchants: t.limitToMerchants,
    save: t.save,
  };
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.users}</Heading>
      {typeof refused === 'string' && (
        <Callout.Root highContrast color="red" role="alert">
          <Callout.Text data-testid="update-refused">{refused}</Callout.Text>
        </Callout.Root>
      )}
      {typeof updated === 'string' && (
        <Callout.Root highContrast color="green" role="status">
          <Callout.Text data-testid="user-updated">
            {t.userUpdated} {updated}
          </Callout.Text>
        </Callout.Root>
      )}
      <CreateUserForm
        accounts={accounts}
        merchants={merchants}
        labels={{
          email: t.email,
          role: t.role,
          roles: t.consoleRole,
          account: t.account,
          mode: t.mode,
          any: t.any,
          test: t.test,
          live: t.live,
          limitToMerchants: t.limitToMerchants,
          createUser: t.createUser,
          userCreated: t.userCreated,
        }}
      />
      <Table.Root variant="surface" size="1">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t.email}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.role}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.account}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.mode}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.merchantsLimit}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.created}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {users.map((u) => (
            <Table.Row key={u.id} data-testid={`user-${u.email}`}>
              <Table.Cell>{u.email}</Table.Cell>
              <Table.Cell data-testid="user-role">{labelOf(t.consoleRole, u.role)}</Table.Cell>
              <Table.Cell className="mono">{u.accountId ?? t.all}</Table.Cell>
              <Table.Cell>{u.livemode === null ? t.any : u.livemode ? t.live : t.test}</Table.Cell>
              <Table.Cell className="mono" data-testid="user-merchants">
                {u.merchantIds?.join(', ') ?? t.all}
              </Table.Cell>
              <Table.Cell>{formatDateTime(u.createdAt, locale)}</Table.Cell>
              <Table.Cell>
                {u.disabledAt ? (
                  <Badge highContrast color="gray">
                    {t.disabled}
                  </Badge>
                ) : (
                  <Flex gap="2" align="start" wrap="wrap">
                    <EditUserForm
                      user={u}
                      merchants={merchants.filter((m) => m.accountId === u.accountId)}
                      labels={editLabels}
                    />
                    <ResetPasswordForm
                      email={u.email}
                      labels={{ resetPassword: t.resetPassword, passwordReset: t.passwordReset }}
                    />
                    {u.id !== me.id && (
                      <form action={disableUser}>
                        <input type="hidden" name="email" value={u.email} />
                        <Button size="1" color="red" variant="soft" type="submit">
                          {t.disable}
                        </Button>
                      </form>
                    )}
                  </Flex>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Flex>
  );
}
