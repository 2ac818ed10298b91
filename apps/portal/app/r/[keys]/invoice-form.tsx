'use client';

import { useActionState, useState, useTransition, type ReactNode } from 'react';
import type { Messages } from '../../../src/messages';
import { invoiceReceipts, type InvoiceFormState } from './actions';

interface Choice {
  clave: string;
  nombre: string;
  fisica: boolean;
  moral: boolean;
}

/** A persona moral's RFC has 12 characters, a persona física's 13 (the SAT's rule); unknown while typing. */
function personOf(rfc: string): 'fisica' | 'moral' | null {
  const length = rfc.trim().length;
  return length === 12 ? 'moral' : length === 13 ? 'fisica' : null;
}

/** A labelled field with its help always shown and the refusal's message under it, both tied to the input. */
function Field({
  id,
  label,
  help,
  error,
  children,
}: {
  id: string;
  label: string;
  help: string;
  error: string | undefined;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby': string }) => ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span id={`${id}-help`} className="help">
        {help}
      </span>
      {children({
        id,
        ...(error ? { 'aria-invalid': true } : {}),
        'aria-describedby': error ? `${id}-help ${id}-error` : `${id}-help`,
      })}
      {error && (
        <span id={`${id}-error`} className="field-error" data-path={id}>
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * The customer's tax details. The regime and use lists follow the RFC typed (only those of its person type); the
 * services decide the rest and their refusals show under their fields, with what typed kept.
 */
export function InvoiceForm({
  t,
  keys,
  regimenes,
  usos,
}: {
  t: Messages;
  keys: string[];
  regimenes: Choice[];
  usos: Choice[];
}) {
  const [state, dispatch, pending] = useActionState<InvoiceFormState, FormData>(invoiceReceipts, {});
  const [, startTransition] = useTransition();
  const [rfc, setRfc] = useState('');
  const [regimen, setRegimen] = useState('');
  const [uso, setUso] = useState('');
  const person = personOf(rfc);
  const fits = (choice: Choice) => !person || choice[person];
  const field = (path: string) => state.fields?.[path];
  return (
    <section className="card" aria-labelledby="data-title">
      <h2 id="data-title">{t.yourData}</h2>
      <p>{t.dataIntro}</p>
      {state.error && (
        <p className="alert" role="alert">
          {state.error}
        </p>
      )}
      <form
        aria-label={t.yourData}
        // Not the form's `action` prop: that would reset every field after a refusal (see the console's useFormAction).
        onSubmit={(event) => {
          event.preventDefault();
          const data = new (FormData as unknown as new (form: unknown) => FormData)(event.currentTarget);
          startTransition(() => dispatch(data));
        }}
      >
        <input type="hidden" name="keys" value={keys.join(',')} />
        <Field id="rfc" label={t.rfc} help={t.rfcHelp} error={field('/receiver/rfc')}>
          {(a) => (
            <input
              name="rfc"
              required
              maxLength={13}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              value={rfc}
              onChange={(event) => setRfc((event.target as unknown as { value: string }).value.toUpperCase())}
              className="mono"
              {...a}
            />
          )}
        </Field>
        <Field id="legalName" label={t.legalName} help={t.legalNameHelp} error={field('/receiver/name')}>
          {(a) => (
            <input
              name="legalName"
              required
              maxLength={300}
              autoComplete="organization"
              autoCapitalize="characters"
              {...a}
            />
          )}
        </Field>
        <Field id="zip" label={t.zip} help={t.zipHelp} error={field('/receiver/zip')}>
          {(a) => (
            <input
              name="zip"
              required
              inputMode="numeric"
              pattern="[0-9]{5}"
              maxLength={5}
              autoComplete="postal-code"
              {...a}
            />
          )}
        </Field>
        <Field
          id="regimenFiscal"
          label={t.regimen}
          help={t.regimenHelp}
          error={field('/receiver/regimenFiscal')}
        >
          {(a) => (
            <select
              name="regimenFiscal"
              required
              value={regimenes.some((r) => r.clave === regimen && fits(r)) ? regimen : ''}
              onChange={(event) => setRegimen((event.target as unknown as { value: string }).value)}
              {...a}
            >
              <option value="">{t.choose}</option>
              {regimenes.filter(fits).map((r) => (
                <option key={r.clave} value={r.clave}>
                  {r.clave} {r.nombre}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="usoCfdi" label={t.uso} help={t.usoHelp} error={field('/usoCfdi')}>
          {(a) => (
            <select
              name="usoCfdi"
              required
              value={usos.some((u) => u.clave === uso && fits(u)) ? uso : ''}
              onChange={(event) => setUso((event.target as unknown as { value: string }).value)}
              {...a}
            >
              <option value="">{t.choose}</option>
              {usos.filter(fits).map((u) => (
                <option key={u.clave} value={u.clave}>
                  {u.clave} {u.nombre}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="email" label={t.email} help={t.emailHelp} error={field('/email')}>
          {(a) => <input name="email" type="email" maxLength={254} autoComplete="email" {...a} />}
        </Field>
        <button type="submit" disabled={pending}>
          {pending ? t.submitting : t.submit}
        </button>
      </form>
    </section>
  );
}
