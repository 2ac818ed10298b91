'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import {
  createCustomer,
  deleteCustomer,
  updateCustomer,
  type CustomerCreate,
  type CustomerLocale,
} from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { formProblem, listOf, textOf, type FormState } from '../../../src/form-state';
import { recordContext } from '../../../src/records-context';

/** The form's fields as the services' create body (they check every field and name the bad ones). */
function customerOf(form: FormData): CustomerCreate {
  const autoEmail = String(form.get('autoEmail') ?? '');
  return {
    rfc: String(form.get('rfc') ?? '').trim(),
    legalName: String(form.get('legalName') ?? '').trim(),
    regimenFiscal: String(form.get('regimenFiscal') ?? ''),
    zip: String(form.get('zip') ?? '').trim(),
    usoCfdi: textOf(form.get('usoCfdi')) ?? null,
    emails: listOf(form.get('emails')),
    locale: (form.get('locale') === 'en' ? 'en' : 'es') as CustomerLocale,
    autoEmail: autoEmail === '' ? null : autoEmail === 'true',
  };
}

/** Creates the customer (no `id` in the form) or changes it; audited either way. */
export async function saveCustomer(_previous: FormState, form: FormData): Promise<FormState> {
  const id = textOf(form.get('id'));
  return audited<FormState>('records.manage', async () => {
    const { ctx, scope } = await recordContext();
    try {
      const body = customerOf(form);
      const saved = id ? await updateCustomer(ctx, scope, id, body) : await createCustomer(ctx, scope, body);
      revalidatePath('/customers');
      return {
        result: { done: saved.id },
        audit: {
          action: id ? 'customer.update' : 'customer.create',
          target: saved.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { rfc: saved.rfc },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

export async function removeCustomer(form: FormData): Promise<void> {
  const id = String(form.get('id') ?? '');
  await audited('records.manage', async () => {
    const { ctx, scope } = await recordContext();
    await deleteCustomer(ctx, scope, id);
    return {
      result: null,
      audit: { action: 'customer.delete', target: id, accountId: scope.accountId, livemode: scope.livemode },
    };
  });
  redirect('/customers');
}
