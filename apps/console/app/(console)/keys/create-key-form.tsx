'use client';

import { useActionState } from 'react';
import { Button, Callout, Flex } from '@radix-ui/themes';
import { createKey } from './actions';

/** A client form so the new secret shows once, in this render only. */
export function CreateKeyForm({
  labels,
}: {
  labels: { createKey: string; merchants: string; note: string; keyCreated: string };
}) {
  const [state, action, pending] = useActionState(createKey, {});
  return (
    <form action={action}>
      <Flex gap="3" align="end" wrap="wrap">
        <label className="field">
          {labels.merchants}
          <input name="merchants" />
        </label>
        <label className="field">
          {labels.note}
          <input name="note" maxLength={200} />
        </label>
        <Button type="submit" disabled={pending}>
          {labels.createKey}
        </Button>
      </Flex>
      {state.error && (
        <Callout.Root highContrast color="red" role="alert" mt="3">
          <Callout.Text>{state.error}</Callout.Text>
        </Callout.Root>
      )}
      {state.secret && (
        <Callout.Root highContrast mt="3">
          <Callout.Text>
            {labels.keyCreated}{' '}
            <code className="secret" data-testid="new-key-secret">
              {state.secret}
            </code>
          </Callout.Text>
        </Callout.Root>
      )}
    </form>
  );
}
