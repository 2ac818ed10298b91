import 'server-only';
import { cookies } from 'next/headers';
import {
  consoleScope,
  isPlatformUser,
  listAccountsForConsole,
  type ConsoleSession,
  type Scope,
} from '@cfdi/services';
import { em } from './platform';
import { requireSession } from './session';

export const ACCOUNT_COOKIE = 'cfdi_account';
export const MODE_COOKIE = 'cfdi_mode';

export interface Workspace {
  session: ConsoleSession;
  /** The account and mode the pages show; null for an operator while no account exists. */
  scope: Scope | null;
  accounts: { id: string; name: string }[];
}

/**
 * Which account and mode the pages act on: a finance user's own account, an operator's chosen one (cookie); the mode
 * the user picked unless their user is limited to one. The Scope comes from the services, which refuse what the user
 * may not see.
 */
export async function currentWorkspace(): Promise<Workspace> {
  const session = await requireSession();
  const { user } = session;
  const jar = await cookies();
  const chosen = jar.get(ACCOUNT_COOKIE)?.value;
  const accounts = isPlatformUser(user)
    ? await listAccountsForConsole(await em(), [chosen, user.accountId])
    : [];
  // An operator starts on their own account (when they have one), then stays on the one they pick.
  const accountId = isPlatformUser(user)
    ? (accounts.find((a) => a.id === chosen) ?? accounts.find((a) => a.id === user.accountId) ?? accounts[0])
        ?.id
    : user.accountId;
  const livemode = user.livemode ?? jar.get(MODE_COOKIE)?.value === 'live';
  const scope = accountId ? await consoleScope(await em(), user, { accountId, livemode }) : null;
  return { session, scope, accounts };
}
