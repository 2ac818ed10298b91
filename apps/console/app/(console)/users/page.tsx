import { Badge, Button, Flex, Heading, Table } from '@radix-ui/themes';
import { listAccountsForConsole, listConsoleUsers } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requireRole } from '../../../src/roles';
import { disableUser } from './actions';
import { CreateUserForm, ResetPasswordForm } from './user-forms';

/** Console users (admins only): create with a generated password, reset it, disable (which ends their sessions). */
export default async function UsersPage() {
  const { user: me } = await requireRole('admin');
  const { t, locale } = await currentLocale();
  const [users, accounts] = await Promise.all([listConsoleUsers(await em()), listAccountsForConsole(await em())]);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.users}</Heading>
      <CreateUserForm accounts={accounts} labels={{ email: t.email, role: t.role, roles: t.consoleRole, account: t.account, mode: t.mode, any: t.any, test: t.test, live: t.live, createUser: t.createUser, userCreated: t.userCreated }} />
      <Table.Root variant="surface" size="1">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t.email}</Table.ColumnHeaderCell><Table.ColumnHeaderCell>{t.role}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.account}</Table.ColumnHeaderCell><Table.ColumnHeaderCell>{t.mode}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell>{t.created}</Table.ColumnHeaderCell><Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {users.map((u) => (
            <Table.Row key={u.id} data-testid={`user-${u.email}`}>
              <Table.Cell>{u.email}</Table.Cell><Table.Cell>{labelOf(t.consoleRole, u.role)}</Table.Cell><Table.Cell className="mono">{u.accountId ?? t.all}</Table.Cell>
              <Table.Cell>{u.livemode === null ? t.any : u.livemode ? t.live : t.test}</Table.Cell><Table.Cell>{formatDateTime(u.createdAt, locale)}</Table.Cell>
              <Table.Cell>
                {u.disabledAt ? <Badge highContrast color="gray">{t.disabled}</Badge> : (
                  <Flex gap="2" align="start">
                    <ResetPasswordForm email={u.email} labels={{ resetPassword: t.resetPassword, passwordReset: t.passwordReset }} />
                    {u.id !== me.id && <form action={disableUser}><input type="hidden" name="email" value={u.email} /><Button size="1" color="red" variant="soft" type="submit">{t.disable}</Button></form>}
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
