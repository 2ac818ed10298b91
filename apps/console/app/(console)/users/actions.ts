'use server';

import { redirect } from 'next/navigation';
import {
  ConflictError,
  createConsoleUser,
  disableConsoleUser,
  generatePassword,
  NotFoundError,
  resetConsoleUserPassword,
  updateConsoleUser,
  ValidationError,
  type ConsoleRole,
} from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em } from '../../../src/platform';

export interface PasswordShownOnce {
  email?: string;
  password?: string;
  error?: string;
}

const isRefusal = (error: unknown): error is Error =>
  error instanceof ValidationError || error instanceof NotFoundError || error instanceof ConflictError;

/** The service's refusals (bad e-mail, taken, unknown account…) become the form's message; anything else is a bug. */
const refusal = (error: unknown) => {
  if (isRefusal(error)) return { result: { error: error.message }, audit: null };
  throw error;
};

const modeFrom = (form: FormData) => {
  const mode = String(form.get('mode') ?? '');
  return mode === 'live' ? true : mode === 'test' ? false : null;
};
/** Ticked merchant checkboxes; none ticked means all of the account's merchants. */
const merchantsFrom = (form: FormData) => form.getAll('merchant').map(String).filter(Boolean);

/** Passwords are generated, never typed by the admin, and handed back in this result only (never stored in clear or audited). */
export async function createUser(_previous: unknown, form: FormData): Promise<PasswordShownOnce> {
  return audited<PasswordShownOnce>('console_users.manage', async () => {
    // The services refuse a role name that is not one (ValidationError, shown as the form's message).
    const role = String(form.get('role') ?? '') as ConsoleRole;
    const merchantIds = merchantsFrom(form);
    const password = generatePassword();
    try {
      const user = await createConsoleUser(await em(), {
        email: String(form.get('email') ?? ''),
        password,
        role,
        // Merchant limits are an account's merchants, so they bring the account along for any role.
        accountId:
          role === 'finance' || merchantIds.length ? String(form.get('account') ?? '') || null : null,
        livemode: modeFrom(form),
        merchantIds,
      });
      return {
        result: { email: user.email, password },
        audit: {
          action: 'console_user.create',
          target: user.id,
          accountId: user.accountId,
          detail: {
            email: user.email,
            role: user.role,
            livemode: user.livemode,
            merchantIds: user.merchantIds,
          },
        },
      };
    } catch (error) {
      return refusal(error);
    }
  });
}

export async function resetPassword(_previous: unknown, form: FormData): Promise<PasswordShownOnce> {
  return audited<PasswordShownOnce>('console_users.manage', async () => {
    const password = generatePassword();
    try {
      const user = await resetConsoleUserPassword(await em(), String(form.get('email') ?? ''), password);
      return {
        result: { email: user.email, password },
        audit: { action: 'console_user.reset_password', target: user.id, detail: { email: user.email } },
      };
    } catch (error) {
      return refusal(error);
    }
  });
}

/** Role, mode and merchant limit; the user's open sessions follow at once (they load the user on every request). */
export async function updateUser(form: FormData): Promise<void> {
  const outcome = await audited<{ refused: string } | { updated: string }>(
    'console_users.manage',
    async () => {
      const role = String(form.get('role') ?? '') as ConsoleRole;
      try {
        const { user, changes } = await updateConsoleUser(await em(), String(form.get('id') ?? ''), {
          role,
          livemode: modeFrom(form),
          merchantIds: merchantsFrom(form),
        });
        const audit = Object.keys(changes).length
          ? {
              action: 'console_user.update',
              target: user.id,
              accountId: user.accountId,
              detail: { email: user.email, ...changes },
            }
          : null;
        return { result: { updated: user.email }, audit };
      } catch (error) {
        if (isRefusal(error)) return { result: { refused: error.message }, audit: null };
        throw error;
      }
    },
  );
  redirect(
    `/users?${'updated' in outcome ? `updated=${encodeURIComponent(outcome.updated)}` : `refused=${encodeURIComponent(outcome.refused)}`}`,
  );
}

export async function disableUser(form: FormData): Promise<void> {
  await audited('console_users.manage', async (session) => {
    const email = String(form.get('email') ?? '');
    // Locking oneself out would leave no admin to undo it from the console.
    if (email.toLowerCase() === session.user.email.toLowerCase()) return { result: null, audit: null };
    const user = await disableConsoleUser(await em(), email);
    return {
      result: null,
      audit: { action: 'console_user.disable', target: user.id, detail: { email: user.email } },
    };
  });
  redirect('/users');
}
