'use server';

import { redirect } from 'next/navigation';
import { CONSOLE_ROLES, createConsoleUser, disableConsoleUser, generatePassword, NotFoundError, resetConsoleUserPassword, ValidationError, type ConsoleRole } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em } from '../../../src/platform';

export interface PasswordShownOnce { email?: string; password?: string; error?: string }

/** The service's refusals (bad e-mail, taken, unknown account…) become the form's message; anything else is a bug. */
const refusal = (error: unknown) => {
  if (error instanceof ValidationError || error instanceof NotFoundError) return { result: { error: error.message }, audit: null };
  throw error;
};

/** Passwords are generated, never typed by the admin, and handed back in this result only (never stored in clear or audited). */
export async function createUser(_previous: unknown, form: FormData): Promise<PasswordShownOnce> {
  return audited<PasswordShownOnce>(['admin'], async () => {
    const role = String(form.get('role') ?? '') as ConsoleRole;
    if (!CONSOLE_ROLES.includes(role)) return { result: { error: `role must be one of ${CONSOLE_ROLES.join(', ')}` }, audit: null };
    const mode = String(form.get('mode') ?? '');
    const password = generatePassword();
    try {
      const user = await createConsoleUser(await em(), {
        email: String(form.get('email') ?? ''), password, role,
        accountId: role === 'finance' ? String(form.get('account') ?? '') || null : null,
        livemode: mode === 'live' ? true : mode === 'test' ? false : null,
      });
      return {
        result: { email: user.email, password },
        audit: { action: 'console_user.create', target: user.id, accountId: user.accountId, detail: { email: user.email, role: user.role, livemode: user.livemode } },
      };
    } catch (error) {
      return refusal(error);
    }
  });
}

export async function resetPassword(_previous: unknown, form: FormData): Promise<PasswordShownOnce> {
  return audited<PasswordShownOnce>(['admin'], async () => {
    const password = generatePassword();
    try {
      const user = await resetConsoleUserPassword(await em(), String(form.get('email') ?? ''), password);
      return { result: { email: user.email, password }, audit: { action: 'console_user.reset_password', target: user.id, detail: { email: user.email } } };
    } catch (error) {
      return refusal(error);
    }
  });
}

export async function disableUser(form: FormData): Promise<void> {
  await audited(['admin'], async (session) => {
    const email = String(form.get('email') ?? '');
    // Locking oneself out would leave no admin to undo it from the console.
    if (email.toLowerCase() === session.user.email.toLowerCase()) return { result: null, audit: null };
    const user = await disableConsoleUser(await em(), email);
    return { result: null, audit: { action: 'console_user.disable', target: user.id, detail: { email: user.email } } };
  });
  redirect('/users');
}
