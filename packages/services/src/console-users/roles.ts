import { ForbiddenError, ValidationError } from '../errors';

export const CONSOLE_ROLES = ['admin', 'operator', 'finance'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/**
 * What each role may do: the one table the console's pages and server actions ask (the CLI runs with the database's
 * credentials, for whoever has the server, and checks no role). A finance user acts for their own account only.
 */
const ALLOWED = {
  /** Create, change, reset and disable console users. */
  'console_users.manage': ['admin'],
  /** Pick any account (and see every account's queues) rather than act for one's own. */
  'accounts.any': ['admin', 'operator'],
  'audit.read': ['admin', 'operator'],
  'reconciliation.resolve': ['admin', 'operator'],
  'files.render_again': ['admin', 'operator'],
  'api_keys.manage': ['admin', 'operator', 'finance'],
  /** See and disconnect one's own applications connected through the OAuth consent page. */
  'oauth_connections.own': ['admin', 'operator', 'finance'],
  /** Create, change and delete the account's customers and products. */
  'records.manage': ['admin', 'finance'],
  /** Issue documents (drafts, stamp), e-mail and cancel them for the account. */
  'documents.issue': ['admin', 'finance'],
  /** A merchant's series, automatic e-mail and its copies, and logo. */
  'merchants.settings': ['admin', 'finance'],
  /** Buy timbres for the account (a Stripe Checkout top-up). */
  'billing.purchase': ['admin', 'operator', 'finance'],
  /** The low-balance warning: its threshold and the address it goes to. */
  'billing.settings': ['admin', 'operator', 'finance'],
} as const satisfies Record<string, readonly ConsoleRole[]>;

export type ConsoleAction = keyof typeof ALLOWED;

export function can(user: { role: ConsoleRole }, action: ConsoleAction): boolean {
  return (ALLOWED[action] as readonly ConsoleRole[]).includes(user.role);
}

/** Throws the 403 the faces translate (the console: a 404 page or a refused action). */
export function requirePermission(user: { role: ConsoleRole }, action: ConsoleAction): void {
  if (!can(user, action)) throw new ForbiddenError(`The ${user.role} role does not allow ${action}.`);
}

/** Operators and admins act platform-wide; a finance user only for their account (and mode, and merchants). */
export const isPlatformUser = (user: { role: ConsoleRole }) => can(user, 'accounts.any');

/** A role name as a form or a command line gives it. */
export function parseConsoleRole(raw: unknown, path = '/role'): ConsoleRole {
  if (!(CONSOLE_ROLES as readonly unknown[]).includes(raw))
    throw ValidationError.field(path, `must be one of: ${CONSOLE_ROLES.join(', ')}`);
  return raw as ConsoleRole;
}
