'use client';

import { useActionState, useState } from 'react';
import { Button, Callout, Flex } from '@radix-ui/themes';
import type { MerchantChoice } from '@cfdi/services';
import { createUser, resetPassword, type PasswordShownOnce } from './actions';
import { AccessFields, type AccessLabels } from './access-fields';
import { MerchantChoices } from './merchant-choices';

function PasswordOnce({ state, message }: { state: PasswordShownOnce; message: string }) {
  if (state.error)
    return (
      <Callout.Root highContrast color="red" role="alert" mt="2">
        <Callout.Text>{state.error}</Callout.Text>
      </Callout.Root>
    );
  if (!state.password) return null;
  return (
    <Callout.Root highContrast mt="2">
      <Callout.Text>
        {message} <span className="mono">{state.email}</span>{' '}
        <code className="secret" data-testid="new-password">
          {state.password}
        </code>
      </Callout.Text>
    </Callout.Root>
  );
}

export interface CreateUserLabels extends AccessLabels {
  email: string;
  account: string;
  limitToMerchants: string;
  createUser: string;
  userCreated: string;
}

/** Client forms so a generated password shows once, in this render only; the merchants offered follow the account picked. */
export function CreateUserForm({
  labels,
  accounts,
  merchants,
}: {
  labels: CreateUserLabels;
  accounts: { id: string; name: string }[];
  merchants: MerchantChoice[];
}) {
  const [state, action, pending] = useActionState(createUser, {});
  const [account, setAccount] = useState(accounts[0]?.id ?? '');
  // The console compiles without the DOM lib (as test/browser.ts does): the select's value read structurally.
  const pickAccount = (event: { target: unknown }) => setAccount((event.target as { value: string }).value);
  return (
    <form action={action} aria-label={labels.createUser}>
      <Flex gap="3" align="end" wrap="wrap">
        <label className="field">
          {labels.email}
          <input name="email" type="email" required />
        </label>
        <AccessFields labels={labels} role="finance" mode="" />
        <label className="field">
          {labels.account}
          <select name="account" value={account} onChange={pickAccount}>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </label>
      </Flex>
      <Flex direction="column" gap="2" mt="2" align="start">
        <MerchantChoices
          key={account}
          legend={labels.limitToMerchants}
          merchants={merchants.filter((m) => m.accountId === account)}
          checked={null}
          test={labels.test}
          live={labels.live}
        />
        <Button type="submit" disabled={pending}>
          {labels.createUser}
        </Button>
      </Flex>
      <PasswordOnce state={state} message={labels.userCreated} />
    </form>
  );
}

export function ResetPasswordForm({
  email,
  labels,
}: {
  email: string;
  labels: { resetPassword: string; passwordReset: string };
}) {
  const [state, action, pending] = useActionState(resetPassword, {});
  return (
    <form action={action}>
      <input type="hidden" name="email" value={email} />
      <Button size="1" variant="soft" type="submit" disabled={pending}>
        {labels.resetPassword}
      </Button>
      <PasswordOnce state={state} message={labels.passwordReset} />
    </form>
  );
}
