'use server';

import { redirect } from 'next/navigation';
import {
  AppError,
  createPortalPass,
  invoicePortalReceipts,
  ReceiptUnavailableError,
  type StampingDeps,
} from '@cfdi/services';
import { startStamping } from '@cfdi/temporal-contract/client';
import { withinLimits } from '../../../src/limits';
import { currentLocale } from '../../../src/locale';
import type { Messages } from '../../../src/messages';
import { em, platform } from '../../../src/platform';

/** What the form shows after a refusal: a message, and each field's by the services' path. */
export interface InvoiceFormState {
  error?: string;
  fields?: Record<string, string>;
  /** The uniform refusal: the tickets can no longer be invoiced (taken meanwhile, expired, cancelled). */
  unavailable?: boolean;
}

/** The services' field paths the form has, each with the customer's explanation of what to check. */
const FIELD_MESSAGES: Record<string, keyof Messages> = {
  '/receiver/rfc': 'rfcError',
  '/receiver/name': 'legalNameError',
  '/receiver/zip': 'zipError',
  '/receiver/regimenFiscal': 'regimenError',
  '/usoCfdi': 'usoError',
  '/email': 'emailError',
};

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/**
 * The customer's invoice: counted against the visitor's and the keys' limits, stored by the services (the receipts
 * marked invoiced in the same transaction), stamped by the stamp workflow as the console and the API start it, then
 * the invoice's page under a pass of its own (the page waits for the stamp and sends the e-mail).
 */
export async function invoiceReceipts(
  _previous: InvoiceFormState,
  form: FormData,
): Promise<InvoiceFormState> {
  const { locale, t } = await currentLocale();
  const keys = text(form, 'keys').split(',');
  if (!(await withinLimits(keys))) return { error: t.tooMany };
  const { config, catalogs, redis, temporal } = await platform();
  const email = text(form, 'email');
  let token: string;
  try {
    const deps: StampingDeps & { portalUrl: string } = { config, catalogs, portalUrl: config.api.portalUrl };
    const { document, scope } = await invoicePortalReceipts(await em(), deps, {
      keys,
      receiver: {
        rfc: text(form, 'rfc'),
        name: text(form, 'legalName'),
        zip: text(form, 'zip'),
        regimenFiscal: text(form, 'regimenFiscal'),
      },
      usoCfdi: text(form, 'usoCfdi'),
      ...(email ? { email } : {}),
    });
    // Waits as long as the API waits; a start that fails is not lost (the resume-stalled sweep starts it).
    await startStamping(
      temporal,
      { documentId: document.id, reconciliation: config.reconciliation },
      { taskQueue: config.temporal.taskQueue, waitMs: config.stampWaitMs },
    ).catch((error: Error) => console.error(`starting the stamp of ${document.id} failed: ${error.message}`));
    token = await createPortalPass(redis, {
      documentId: document.id,
      keys,
      accountId: scope.accountId,
      livemode: scope.livemode,
      email: email || null,
      locale,
    });
  } catch (error) {
    if (error instanceof ReceiptUnavailableError) return { unavailable: true, error: t.unavailable };
    if (!(error instanceof AppError)) throw error;
    if (!error.extra.errors?.length) return { error: t.serviceError };
    const fields: Record<string, string> = {};
    const others: string[] = [];
    for (const { path, message } of error.extra.errors ?? []) {
      const known = FIELD_MESSAGES[path];
      if (known) fields[path] ??= t[known] as string;
      else others.push(`${path}: ${message}`);
    }
    return { error: others.length ? `${t.problem} ${others.join('; ')}` : t.problem, fields };
  }
  redirect(`/f/${token}`);
}
