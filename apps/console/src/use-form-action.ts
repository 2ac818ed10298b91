'use client';

import { useActionState, useTransition } from 'react';
import type { FormState } from './form-state';

/**
 * A form's server action that keeps what was typed when the services refuse it (a form's `action` prop would reset
 * every field after each submission, so fixing one field would mean typing all of them again).
 */
export function useFormAction(serverAction: (previous: FormState, form: FormData) => Promise<FormState>) {
  const [state, dispatch, pending] = useActionState(serverAction, {});
  const [, startTransition] = useTransition();
  const onSubmit = (event: { preventDefault(): void; currentTarget: unknown }) => {
    event.preventDefault();
    // The browser's FormData reads a form element (typed as Node's, which has no such constructor: no DOM lib here).
    const data = new (FormData as unknown as new (form: unknown) => FormData)(event.currentTarget);
    startTransition(() => dispatch(data));
  };
  return { state, onSubmit, pending };
}
