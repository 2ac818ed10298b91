import type { ReactNode } from 'react';
import { Callout } from '@radix-ui/themes';
import type { FormState } from './form-state';

/** The problem of a field's path, or of a part of it (`/emailCopyTo/1` is the second address typed in one field). */
const fieldMessage = (state: FormState, path: string) =>
  state.fields?.[path] ?? Object.entries(state.fields ?? {}).find(([p]) => p.startsWith(`${path}/`))?.[1];

const isShown = (path: string, shown: readonly string[]) =>
  shown.some((s) => path === s || path.startsWith(`${s}/`));

/**
 * A labelled field with the services' message for its JSON pointer under it, tied to the input by
 * aria-describedby so a screen reader reads it with the field.
 */
export function Field({
  label,
  path,
  state,
  children,
}: {
  label: string;
  path: string;
  state: FormState;
  children: (props: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const message = fieldMessage(state, path);
  const id = `error${path.replace(/\//g, '-')}`;
  return (
    <label className="field">
      {label}
      {children(message ? { 'aria-invalid': true, 'aria-describedby': id } : {})}
      {message && (
        <span id={id} className="field-error" data-path={path}>
          {message}
        </span>
      )}
    </label>
  );
}

/** The problem's message and every field error the form has no field for, with its path. */
export function FormProblem({ state, shown }: { state: FormState; shown: readonly string[] }) {
  if (!state.error) return null;
  const others = Object.entries(state.fields ?? {}).filter(([path]) => !isShown(path, shown));
  return (
    <Callout.Root highContrast color="red" role="alert" mt="3">
      <Callout.Text>{state.error}</Callout.Text>
      {others.map(([path, message]) => (
        <Callout.Text key={path} className="mono">
          {path}: {message}
        </Callout.Text>
      ))}
    </Callout.Root>
  );
}

/** What a form's action did, announced (a created record's id, the addresses an e-mail was queued for). */
export function FormDone({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Callout.Root highContrast mt="3" role="status">
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}

/** The options of a select of SAT keys, each as its key and name. */
export function KeyOptions({ keys }: { keys: readonly { clave: string; nombre: string }[] }) {
  return keys.map((k) => (
    <option key={k.clave} value={k.clave}>
      {k.clave} {k.nombre}
    </option>
  ));
}
