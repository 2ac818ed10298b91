import type { EntityManager } from '@cfdi/db';
import { ForbiddenError, NotFoundError } from '../errors';
import { isPlatformUser, type ConsoleUserView } from '../console-users';
import type { Scope } from '../scope';

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
  const found: unknown[] = await em.execute('select 1 from accounts where id = ?', [wanted.accountId]);
  if (!found.length) throw new NotFoundError('account', wanted.accountId);
  return {
    accountId: wanted.accountId,
    livemode: wanted.livemode,
    keyId: `console:${user.id}`,
    merchantIds: user.merchantIds,
  };
}

/** Accounts an operator can pick from, by name (then id, for accounts of the same name). */
export async function listAccountsForConsole(em: EntityManager): Promise<{ id: string; name: string }[]> {
  return em.execute('select id, name from accounts order by lower(name), id limit 500');
}
