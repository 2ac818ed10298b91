import { notFound } from 'next/navigation';
import { Flex, Heading } from '@radix-ui/themes';
import {
  listConsoleMerchants,
  listCustomers,
  listProducts,
  loadDraft,
  ConflictError,
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
import type { IssueFormBody } from '../../../src/issuing';
import { editableBody } from './editable-draft';

/** The invoice `?invoice=` names, for its credit note (another account's is a 404, as its page is). */
async function creditedInvoice(ctx: RecordContext, scope: Scope, id: string): Promise<CreditedInvoice> {
  try {
    const row = await retrieveScopedDocument(ctx.em, scope, id);
    if (row.type !== 'invoice' || row.kind === 'credit_note') notFound();
    return {
      id: row.id,
      merchantId: row.merchant_id,
      currency: row.currency,
      label: `${row.serie}-${row.folio_text ?? row.folio} · ${row.receiver.rfc} · ${row.uuid ?? ''}`,
    };
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
}

/**
 * A draft the form can edit (`?draft=`): one made of saved records, as this form makes them, back as the form's
 * state. Another account's, a stamped one or one with typed-in receiver or items (the API's) is a 404 here.
 */
async function editableDraft(
  ctx: RecordContext,
  scope: Scope,
  id: string,
): Promise<{ id: string; body: IssueFormBody }> {
  try {
    const { row } = await loadDraft(ctx.em, scope, id);
    const body = editableBody(row.request ?? {});
    if (!body) notFound();
    return { id: row.id, body };
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof ConflictError) notFound();
    throw error;
  }
}

/**
 * A new invoice from the account's saved customers and products, (`?invoice=`) a credit note of an invoice, or
 * (`?draft=`) a saved draft edited again.
 */
export default async function IssuePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('documents.issue');
  const params = await searchParams;
  const { t, locale } = await currentLocale();
  const { ctx, scope } = await recordContext();
  const draftId = param(params, 'draft');
  const draft = draftId ? await editableDraft(ctx, scope, draftId) : undefined;
  const invoiceId = draft?.body.relatedInvoiceId ?? param(params, 'invoice');
  const [credited, merchants, customers, products, { formas, usos, monedas }] = await Promise.all([
    invoiceId ? creditedInvoice(ctx, scope, invoiceId) : undefined,
    listConsoleMerchants(ctx.em, scope, new Date()),
    listCustomers(ctx, scope, { limit: 100 }),
    listProducts(ctx, scope, { limit: 100 }),
    catalogChoices(),
  ]);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {draft ? t.issue.editDraft : credited ? t.issue.newCreditNote : t.issue.newInvoice}
      </Heading>
      <IssueForm
        key={draft?.id ?? 'new'}
        {...(draft ? { draft } : {})}
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
        monedas={monedas}
      />
    </Flex>
  );
}
