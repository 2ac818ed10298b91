import { notFound } from 'next/navigation';
import { Flex, Heading } from '@radix-ui/themes';
import {
  listConsoleMerchants,
  listCustomers,
  listProducts,
  NotFoundError,
  retrieveScopedDocument,
  type RecordContext,
  type Scope,
} from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { catalogChoices, recordContext } from '../../../src/records-context';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { IssueForm, type CreditedInvoice } from './issue-form';

/** The invoice `?invoice=` names, for its credit note (another account's is a 404, as its page is). */
async function creditedInvoice(ctx: RecordContext, scope: Scope, id: string): Promise<CreditedInvoice> {
  try {
    const row = await retrieveScopedDocument(ctx.em, scope, id);
    if (row.type !== 'invoice' || row.kind === 'credit_note') notFound();
    return {
      id: row.id,
      merchantId: row.merchant_id,
      label: `${row.serie}-${row.folio_text ?? row.folio} · ${row.receiver.rfc} · ${row.uuid ?? ''}`,
    };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/** A new invoice from the account's saved customers and products, or (`?invoice=`) a credit note of an invoice. */
export default async function IssuePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('documents.issue');
  const invoiceId = param(await searchParams, 'invoice');
  const { t, locale } = await currentLocale();
  const { ctx, scope } = await recordContext();
  const [credited, merchants, customers, products, { formas, usos }] = await Promise.all([
    invoiceId ? creditedInvoice(ctx, scope, invoiceId) : undefined,
    listConsoleMerchants(ctx.em, scope, new Date()),
    listCustomers(ctx, scope, { limit: 100 }),
    listProducts(ctx, scope, { limit: 100 }),
    catalogChoices(),
  ]);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{credited ? t.issue.newCreditNote : t.issue.newInvoice}</Heading>
      <IssueForm
        labels={t.issue}
        locale={locale}
        {...(credited ? { credited } : {})}
        merchants={merchants.map((m) => ({ id: m.id, label: `${m.rfc} · ${m.legalName}` }))}
        customers={customers.data.map((c) => ({ id: c.id, label: `${c.rfc} · ${c.legalName}` }))}
        products={products.data.map((p) => ({
          id: p.id,
          label: `${p.description}${p.sku ? ` (${p.sku})` : ''} · ${formatMoney(p.price, locale)}`,
        }))}
        formas={formas}
        usos={usos}
      />
    </Flex>
  );
}
