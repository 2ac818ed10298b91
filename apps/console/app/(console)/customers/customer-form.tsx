'use client';

import { Button, Flex } from '@radix-ui/themes';
import type { CustomerView } from '@cfdi/services';
import { Field, FormDone, FormProblem, KeyOptions } from '../../../src/form-field';
import { useFormAction } from '../../../src/use-form-action';
import type { IssueMessages } from '../../../src/i18n/issue-messages';
import { saveCustomer } from './actions';

type Choice = { clave: string; nombre: string };
const SHOWN = ['/rfc', '/legalName', '/regimenFiscal', '/zip', '/usoCfdi', '/emails'] as const;

/** Create (no `customer`) or edit a customer; the services' messages appear under their fields. */
export function CustomerForm({
  labels,
  customer,
  regimenes,
  usos,
}: {
  labels: IssueMessages;
  customer?: CustomerView;
  regimenes: Choice[];
  usos: Choice[];
}) {
  const { state, onSubmit, pending } = useFormAction(saveCustomer);
  return (
    // A created record clears the form (a new key remounts it); an edited one keeps its fields.
    <form
      key={customer?.id ?? state.done ?? 'new'}
      onSubmit={onSubmit}
      aria-label={customer ? labels.editCustomer : labels.newCustomer}
    >
      {customer && <input type="hidden" name="id" value={customer.id} />}
      <Flex gap="3" align="end" wrap="wrap">
        <Field label={labels.rfc} path="/rfc" state={state}>
          {(a) => <input name="rfc" defaultValue={customer?.rfc} required maxLength={13} {...a} />}
        </Field>
        <Field label={labels.legalName} path="/legalName" state={state}>
          {(a) => (
            <input name="legalName" defaultValue={customer?.legalName} required maxLength={300} {...a} />
          )}
        </Field>
        <Field label={labels.regimenFiscal} path="/regimenFiscal" state={state}>
          {(a) => (
            <select name="regimenFiscal" defaultValue={customer?.regimenFiscal ?? '601'} {...a}>
              <KeyOptions keys={regimenes} />
            </select>
          )}
        </Field>
        <Field label={labels.zip} path="/zip" state={state}>
          {(a) => (
            <input
              name="zip"
              defaultValue={customer?.zip}
              required
              inputMode="numeric"
              maxLength={5}
              {...a}
            />
          )}
        </Field>
        <Field label={labels.usoCfdi} path="/usoCfdi" state={state}>
          {(a) => (
            <select name="usoCfdi" defaultValue={customer?.usoCfdi ?? 'G03'} {...a}>
              <KeyOptions keys={usos} />
            </select>
          )}
        </Field>
        <Field label={labels.emails} path="/emails" state={state}>
          {(a) => <input name="emails" defaultValue={customer?.emails.join(', ')} {...a} />}
        </Field>
        <label className="field">
          {labels.emailLanguage}
          <select name="locale" defaultValue={customer?.locale ?? 'es'}>
            <option value="es">Español</option>
            <option value="en">English</option>
          </select>
        </label>
        <label className="field">
          {labels.autoEmail}
          <select
            name="autoEmail"
            defaultValue={customer?.autoEmail === null ? '' : String(customer?.autoEmail ?? '')}
          >
            <option value="">{labels.autoEmailFollow}</option>
            <option value="true">{labels.yes}</option>
            <option value="false">{labels.no}</option>
          </select>
        </label>
        <Button type="submit" disabled={pending}>
          {customer ? labels.save : labels.create}
        </Button>
      </Flex>
      <FormProblem state={state} shown={SHOWN} />
      <FormDone message={state.done && !state.error ? `${labels.saved} ${state.done}` : null} />
    </form>
  );
}
