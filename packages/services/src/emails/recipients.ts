import type { EntityManager } from '@cfdi/db';
import type { DocumentRow } from '../documents';
import { distinctAddresses } from './addresses';
import { selectCustomerContact } from '../records/record-repository';
import { selectMerchantCopyTo } from '../merchants/merchant-repository';

export type EmailLocale = 'es' | 'en';

export interface EmailRecipients {
  to: string[];
  locale: EmailLocale;
}

/** The document's saved customer as e-mail needs it (a deleted customer receives nothing more). */
interface CustomerContact {
  emails: string[];
  locale: EmailLocale;
  auto_email: boolean | null;
}

export async function customerContact(
  em: EntityManager,
  document: Pick<DocumentRow, 'customer_id'>,
): Promise<CustomerContact | null> {
  if (!document.customer_id) return null;
  return (await selectCustomerContact(em, document.customer_id)) ?? null;
}

/**
 * Who a document's e-mail goes to, and in which language: the one place recipients are decided, for a request and
 * for automatic sending alike. The addresses asked for (a request's `to`), else the saved customer's `emails` the
 * document was made for; then the merchant's copy addresses (`emailCopyTo`, its own bookkeeping) on every message.
 * The language asked for, else the customer's, else Spanish.
 */
export async function recipientsFor(
  em: EntityManager,
  document: Pick<DocumentRow, 'merchant_id' | 'customer_id'>,
  requested: { to?: readonly string[]; locale?: EmailLocale } = {},
): Promise<EmailRecipients> {
  const copies = await selectMerchantCopyTo(em, document.merchant_id);
  const customer = await customerContact(em, document);
  const asked = requested.to?.length ? requested.to : (customer?.emails ?? []);
  return {
    to: distinctAddresses([...asked, ...copies]),
    locale: requested.locale ?? customer?.locale ?? 'es',
  };
}
