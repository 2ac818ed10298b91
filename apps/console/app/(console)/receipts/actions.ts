'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { cancelReceipt } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { receiptContext } from '../../../src/records-context';

/** Cancels an open receipt; only the confirmation's button says `confirmed` (a bare post changes nothing). */
export async function cancelReceiptAction(form: FormData): Promise<void> {
  const id = String(form.get('id') ?? '');
  if (!/^rcpt_[0-9A-Za-z]+$/.test(id)) redirect('/receipts');
  await audited('documents.issue', async () => {
    if (form.get('confirmed') !== 'yes') return { result: null, audit: null };
    const { ctx, scope } = await receiptContext();
    const receipt = await cancelReceipt(ctx, scope, id);
    revalidatePath('/receipts');
    return {
      result: null,
      audit: {
        action: 'receipt.cancel',
        target: receipt.id,
        accountId: scope.accountId,
        livemode: scope.livemode,
        detail: { total: receipt.total, merchantId: receipt.merchantId },
      },
    };
  });
  redirect(`/receipts/${id}`);
}
