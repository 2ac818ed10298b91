'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import {
  consumeEmailQuota,
  DOCUMENT_KINDS,
  replacementDraft,
  requestCancellation,
  requestDocumentEmail,
  retrieveScopedDocument,
  type Motivo,
} from '@cfdi/services';
import { startCancellation, startEmailDelivery } from '@cfdi/temporal-contract/client';
import { audited } from '../../../../src/audited-action';
import { formProblem, listOf, numberOf, textOf, type FormState } from '../../../../src/form-state';
import { stampingDeps, startStampingOf } from '../../../../src/issuing';
import { em, platform } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';

async function documentOf(id: string) {
  const { scope } = await currentWorkspace();
  if (!scope) throw new Error('no account in this workspace');
  return { scope, row: await retrieveScopedDocument(await em(), scope, id) };
}

/** The API's POST …/email: queued under the account's rate limit, then sent by its workflow. */
export async function emailDocument(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  return audited<FormState>('documents.issue', async () => {
    const { config, redis, temporal } = await platform();
    try {
      const { scope } = await documentOf(id);
      await consumeEmailQuota(redis, scope.accountId, config.mail.perMinute);
      const to = listOf(form.get('to'));
      const delivery = await requestDocumentEmail(await em(), scope, undefined, id, to.length ? { to } : {}, {
        configured: Boolean(config.mail.smtpUrl),
      });
      await startEmailDelivery(
        temporal,
        { deliveryId: delivery.id, retry: config.mail.retry },
        config.temporal.taskQueue,
      );
      return {
        result: { done: delivery.recipients.join(', ') },
        audit: {
          action: 'document.email',
          target: id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { deliveryId: delivery.id, to: delivery.recipients },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

/**
 * The API's POST …/cancel: the services check the motive and the substitution (motive 01 names a stamped CFDI that
 * relates this one with TipoRelacion 04), reserve a timbre and record the request; the cancel workflow asks the PAC.
 */
export async function cancelDocument(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  const result = await audited<FormState>('documents.issue', async () => {
    const { config, temporal } = await platform();
    try {
      const { scope, row } = await documentOf(id);
      const folioSustitucion = textOf(form.get('folioSustitucion'));
      const body = {
        motivo: String(form.get('motivo') ?? '') as Motivo,
        ...(folioSustitucion ? { folioSustitucion } : {}),
      };
      await requestCancellation(await em(), { config }, scope, { id, type: row.type }, body);
      const outcome = await startCancellation(
        temporal,
        { documentId: id, polling: config.cancellationPolling },
        { taskQueue: config.temporal.taskQueue, waitMs: config.stampWaitMs, attach: false },
      );
      const refused =
        outcome?.outcome === 'rejected'
          ? `${outcome.code}: ${outcome.message}`
          : outcome?.outcome === 'unavailable'
            ? outcome.detail
            : null;
      return {
        result: refused ? { error: refused } : { done: body.motivo },
        audit: {
          action: 'document.cancel',
          target: id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { ...body, outcome: outcome?.outcome ?? 'pending' },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
  revalidatePath(`/documents/${id}`);
  return result;
}

/**
 * The API's POST /v1/invoices/{id}/payments: a payment complement of a PPD invoice (the services check the balance,
 * the installment and the date), stored with its timbre reserved and stamped by its workflow.
 */
export async function recordPayment(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  const result = await audited<FormState>('documents.issue', async () => {
    try {
      const { scope } = await documentOf(id);
      // A datetime-local field gives minutes; the CFDI's FechaPago has seconds.
      const fechaPago = textOf(form.get('fechaPago'))?.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d)$/, '$1:00');
      // A foreign-currency invoice is paid in its own currency (monedaP), at the rate the form asks for.
      const monedaP = textOf(form.get('monedaP'));
      const body = {
        monto: numberOf(form.get('monto')) ?? Number.NaN,
        formaPago: String(form.get('formaPago') ?? ''),
        ...(fechaPago ? { fechaPago } : {}),
        ...(monedaP ? { monedaP, tipoCambioP: numberOf(form.get('tipoCambioP')) ?? Number.NaN } : {}),
      };
      const payment = await DOCUMENT_KINDS.payment.create(await em(), await stampingDeps(), scope, body, {
        parentId: id,
      });
      await startStampingOf(payment.id);
      return {
        result: { done: payment.id },
        audit: {
          action: 'document.payment_create',
          target: payment.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { invoiceId: id, monto: payment.monto },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
  revalidatePath(`/documents/${id}`);
  return result;
}

/** A substitution's first step: a draft relating this invoice with 04, opened to preview and stamp it. */
export async function replaceDocument(_previous: FormState, form: FormData): Promise<FormState> {
  const id = String(form.get('id') ?? '');
  const result = await audited<FormState>('documents.issue', async () => {
    try {
      const { scope } = await documentOf(id);
      const draft = await replacementDraft(await em(), await stampingDeps(), scope, id);
      return {
        result: { done: draft.id },
        audit: {
          action: 'document.draft_create',
          target: draft.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { kind: 'invoice', replaces: id },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
  if (result.done) redirect(`/issue/drafts/${result.done}`);
  return result;
}
