import { Badge, Button, Flex, Heading, Table } from '@radix-ui/themes';
import { consoleUsersPage, listAccountsForConsole, listMerchantChoices } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import type { SearchParams } from '../../../src/search-params';
import { ListTable, listWindow } from '../../../src/list-table';
import { disableUser } from './actions';
import { EditUserForm } from './edit-user-form';
import { CreateUserForm, ResetPasswordForm } from './user-forms';
import { OutcomeNotices } from '../../../src/outcome-notices';

/** Console users (admins only): create with a generated password, edit role, mode and merchants, reset the password, disable (which ends their sessions). */
export default async function UsersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { user: me } = await requirePermission('console_users.manage');
  const { t, locale } = await currentLocale();
  const params = await searchParams;
  const { refused, updated } = params;
  const window = listWindow(params);
  const [users, accounts] = await Promise.all([
    consoleUsersPage(await em(), window),
    listAccountsForConsole(await em(), [me.accountId]),
  ]);
  const accountIds = [
    ...new Set([
      ...accounts.map((a) => a.id),
      ...users.rows.flatMap((u) => (u.accountId ? [u.accountId] : [])),
    ]),
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
      <OutcomeNotices
        testIds={{ refused: 'update-refused', done: 'user-updated' }}
        refused={typeof refused === 'string' ? refused : null}
        done={
          typeof updated === 'string' ? (
            <>
              {t.userUpdated} {updated}
            </>
          ) : null
        }
      />
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
      <ListTable
        list={{ path: '/users', params, window, t, locale }}
        page={users}
        empty={t.noResults}
        columns={[
          { label: t.email },
          { label: t.role },
          { label: t.account },
          { label: t.mode },
          { label: t.merchantsLimit },
          { label: t.created },
          { label: t.status },
        ]}
      >
        {users.rows.map((u) => (
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
      </ListTable>
    </Flex>
  );
}
