'use server';

import { revalidatePath } from 'next/cache';
import { putMerchantLogo, setNextFolio, updateMerchant, ValidationError } from '@cfdi/services';
import { audited } from '../../../../src/audited-action';
import { formProblem, listOf, numberOf, textOf, type FormState } from '../../../../src/form-state';
import { em, platform } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';

/** What the merchant services need: the database, a clock, the file-URL signer and (for the logo) the storage. */
async function merchantContext() {
  const { now, fileUrls, storage } = await platform();
  return { em: await em(), now, fileUrls, storage };
}

async function scopeOrThrow() {
  const { scope } = await currentWorkspace();
  if (!scope) throw new Error('no account in this workspace');
  return scope;
}

/** The API's PATCH /v1/merchants/{id} for the fields this page has: series, automatic e-mail, copies. */
export async function saveMerchantSettings(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  return audited<FormState>('merchants.settings', async () => {
    const scope = await scopeOrThrow();
    try {
      const input = {
        serie: textOf(form.get('serie')) ?? '',
        autoEmail: form.get('autoEmail') === 'true',
        emailCopyTo: listOf(form.get('emailCopyTo')),
      };
      const merchant = await updateMerchant(await merchantContext(), scope, id, input);
      revalidatePath(`/merchants/${id}`);
      return {
        result: { done: merchant.serie },
        audit: {
          action: 'merchant.update',
          target: id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: input,
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

/** The API's PATCH /v1/merchants/{id} for the PDF look: brand colour (empty for the default) and the PDFs' note. */
export async function saveMerchantLook(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  return audited<FormState>('merchants.settings', async () => {
    const scope = await scopeOrThrow();
    try {
      const input = {
        brandColor: textOf(form.get('brandColor')) ?? null,
        // As typed: the services normalise line breaks and spaces, and a blank note is none.
        pdfNote: String(form.get('pdfNote') ?? ''),
      };
      const merchant = await updateMerchant(await merchantContext(), scope, id, input);
      revalidatePath(`/merchants/${id}`);
      return {
        result: { done: merchant.brandColor ?? 'default' },
        audit: {
          action: 'merchant.update',
          target: id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { brandColor: merchant.brandColor, pdfNote: merchant.pdfNote },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

/** The API's PUT /v1/merchants/{id}/logo: a PNG, JPEG or WebP the services check by content and size. */
export async function uploadMerchantLogo(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  return audited<FormState>('merchants.settings', async () => {
    const scope = await scopeOrThrow();
    try {
      const file = form.get('logo') as { size: number; arrayBuffer(): Promise<ArrayBuffer> } | null;
      if (!file || typeof file === 'string' || file.size === 0)
        throw ValidationError.field('/logo', 'choose a PNG, JPEG or WebP image');
      const base64 = Buffer.from(await file.arrayBuffer()).toString('base64');
      await putMerchantLogo(await merchantContext(), scope, id, base64);
      revalidatePath(`/merchants/${id}`);
      return {
        result: { done: id },
        audit: { action: 'merchant.logo', target: id, accountId: scope.accountId, livemode: scope.livemode },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

/** The folio the next document of one of the merchant's series gets: only forward (setNextFolio). */
export async function saveNextFolio(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  return audited<FormState>('merchants.settings', async () => {
    const scope = await scopeOrThrow();
    try {
      const input = {
        serie: String(form.get('serie') ?? ''),
        nextFolio: numberOf(form.get('nextFolio')) ?? NaN,
      };
      const set = await setNextFolio(await em(), scope, id, input);
      revalidatePath(`/merchants/${id}`);
      return {
        result: { done: `${set.serie} ${set.nextFolio}` },
        audit: {
          action: 'merchant.next_folio',
          target: id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { serie: set.serie, nextFolio: set.nextFolio },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}
