'use server';

import { redirect } from 'next/navigation';
import {
  createCheckoutSession,
  ServiceUnavailableError,
  setLowBalanceAlert,
  ValidationError,
} from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { em, platform } from '../../../src/platform';
import { currentWorkspace } from '../../../src/workspace';

/** Starts a Stripe Checkout top-up through the services (the API's own flow) and sends the user to Stripe's page. */
export async function startCheckout(form: FormData): Promise<void> {
  const target = await audited<string>('billing.purchase', async () => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: '/billing', audit: null };
    // Pesos as typed (1,500.50 or 1500.5) to whole centavos; the services check the spec's limits.
    const pesos = Number(String(form.get('amount') ?? '').replace(/[$,\s]/g, ''));
    const centavos = Math.round(pesos * 100);
    try {
      const session = await createCheckoutSession(
        { em: await em(), stripe: (await platform()).stripe },
        scope,
        centavos,
      );
      return {
        result: session.url,
        audit: {
          action: 'billing.checkout',
          target: session.purchaseId,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { amountCentavos: centavos },
        },
      };
    } catch (error) {
      // A code in the URL, not the message: the page says it in the user's language (and a link cannot make it say
      // anything else).
      if (error instanceof ValidationError) return { result: '/billing?error=amount', audit: null };
      if (error instanceof ServiceUnavailableError)
        return { result: '/billing?error=unavailable', audit: null };
      throw error;
    }
  });
  redirect(target);
}

/** Sets the low-balance warning: a threshold typed in pesos (empty: no warning) and the address to warn. */
export async function saveLowBalance(form: FormData): Promise<void> {
  const target = await audited<string>('billing.settings', async () => {
    const { scope } = await currentWorkspace();
    if (!scope) return { result: '/billing', audit: null };
    const typed = String(form.get('threshold') ?? '').replace(/[$,\s]/g, '');
    const thresholdCentavos = typed === '' ? null : Math.round(Number(typed) * 100);
    const email = String(form.get('email') ?? '');
    try {
      await setLowBalanceAlert(await em(), scope, {
        thresholdCentavos: Number.isNaN(thresholdCentavos) ? -1 : thresholdCentavos,
        email,
      });
    } catch (error) {
      if (error instanceof ValidationError) return { result: '/billing?error=lowBalance', audit: null };
      throw error;
    }
    return {
      result: '/billing?saved=lowBalance',
      audit: {
        action: 'billing.low_balance',
        accountId: scope.accountId,
        livemode: scope.livemode,
        detail: { thresholdCentavos, email: email.trim() || null },
      },
    };
  });
  redirect(target);
}
