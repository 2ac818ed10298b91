import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError } from '../errors';
import { isPlatformUser, type ConsoleUserView } from '../console-users';
import type { Scope } from '../scope';
import { accountExists, selectAccountChoices } from '../account-repository';

/**
 * The Scope a console user acts in, the same the API derives from a key: every service the pages call filters by
 * it, so another account's id in a URL finds nothing (404) whatever the menus show.
 */
export async function consoleScope(
  em: EntityManager,
  user: ConsoleUserView,
  wanted: { accountId: string; livemode: boolean },
): Promise<Scope> {
  if (!isPlatformUser(user) && wanted.accountId !== user.accountId)
    throw new NotFoundError('account', wanted.accountId);
  if (user.livemode !== null && wanted.livemode !== user.livemode)
    throw new ForbiddenError(`This user works in ${user.livemode ? 'live' : 'test'} mode only.`);
  if (!(await accountExists(em, wanted.accountId))) throw new NotFoundError('account', wanted.accountId);
  return {
    accountId: wanted.accountId,
    livemode: wanted.livemode,
    keyId: `console:${user.id}`,
    merchantIds: user.merchantIds,
  };
}

/** How many accounts a picker lists besides the ones it must show: the newest. */
const ACCOUNT_CHOICES = 500;

/**
 * Accounts an operator can pick from, by name (then id, for accounts of the same name): the newest 500 and always
 * those in `include` (the operator's own account, the one they are working on), however old.
 */
export async function listAccountsForConsole(
  em: EntityManager,
  include: (string | null | undefined)[] = [],
): Promise<{ id: string; name: string }[]> {
  return selectAccountChoices(
    em,
    ACCOUNT_CHOICES,
    include.filter((id): id is string => Boolean(id)),
  );
}
