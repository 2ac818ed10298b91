import type { ReactNode } from 'react';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { foundOrNotFound } from '../../../../src/not-found';
import { Button, Callout, Card, DataList, Flex, Heading } from '@radix-ui/themes';
import { can, retrieveReceipt } from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../../src/i18n/format';
import { currentLocale } from '../../../../src/i18n/locale';
import { catalogChoices, receiptContext } from '../../../../src/records-context';
import { param, type SearchParams } from '../../../../src/search-params';
import { ItemsTable } from '../../../../src/items-table';
import { requireSession } from '../../../../src/session';
import { currentWorkspace } from '../../../../src/workspace';
import { cancelReceiptAction } from '../actions';
import { ReceiptStatusBadge } from '../receipt-status';

export default async function ReceiptPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { id } = await params;
  const query = await searchParams;
  const { user } = await requireSession();
  const { scope } = await currentWorkspace();
  if (!scope) notFound();
  const { t, locale } = await currentLocale();
  const { ctx } = await receiptContext();
  // Another account's or mode's receipt is not there.
  const receipt = await foundOrNotFound(retrieveReceipt(ctx, scope, id));
  const { formas } = await catalogChoices();
  const forma = formas.find((f) => f.clave === receipt.formaPago);
  const money = (text: string | number) => formatMoney(Number(text), locale);
  const cancellable = receipt.status === 'open' && can(user, 'documents.issue');
  // "Cancel" asks first: a plain link opens this confirmation (no JavaScript needed), and only its button cancels.
  const confirming = cancellable && param(query, 'cancel') === '1';
  const r = t.receipts;
  const row = (label: string, value: ReactNode, testId?: string) => (
    <DataList.Item>
      <DataList.Label>{label}</DataList.Label>
      <DataList.Value data-testid={testId}>{value}</DataList.Value>
    </DataList.Item>
  );
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {r.receipt} <span className="mono">{receipt.id}</span>
      </Heading>
      {confirming && (
        <Callout.Root highContrast color="red" role="alert" data-testid="cancel-confirmation">
          <Callout.Text>{r.cancelConfirm}</Callout.Text>
          <Flex gap="3" align="center" wrap="wrap">
            <form action={cancelReceiptAction}>
              <input type="hidden" name="id" value={receipt.id} />
              <input type="hidden" name="confirmed" value="yes" />
              <Button size="1" color="red" variant="soft" highContrast type="submit">
                {r.cancelConfirmButton}
              </Button>
            </form>
            <Link href={`/receipts/${receipt.id}`}>{r.keepIt}</Link>
          </Flex>
        </Callout.Root>
      )}
      <Card>
        <DataList.Root>
          {row(
            t.status,
            <ReceiptStatusBadge status={receipt.status} label={labelOf(r.status, receipt.status)} />,
          )}
          {row(t.date, formatDateTime(receipt.createdAt, locale))}
          {row(t.merchant, <span className="mono">{receipt.merchantId}</span>)}
          {receipt.branch && row(r.branch, receipt.branch)}
          {receipt.externalId && row(r.externalId, <span className="mono">{receipt.externalId}</span>)}
          {row(t.issue.formaPago, forma ? `${forma.clave} · ${forma.nombre}` : receipt.formaPago)}
          {row(r.expires, formatDateTime(receipt.expiresAt, locale))}
          {receipt.cancelledAt && row(r.cancelledAt, formatDateTime(receipt.cancelledAt, locale))}
          {receipt.invoiceId &&
            row(
              r.invoice,
              <Link href={`/documents/${receipt.invoiceId}`} className="mono" data-testid="receipt-invoice">
                {receipt.invoiceId}
              </Link>,
            )}
        </DataList.Root>
      </Card>
      <Card>
        {/* Read-only fields: selected and copied as they are, to dictate or send to the customer. */}
        <Flex direction="column" gap="3">
          <label className="field">
            {r.key}
            <input readOnly value={receipt.key} className="mono" data-testid="receipt-key" />
          </label>
          <label className="field">
            {r.selfInvoiceUrl}
            <input readOnly value={receipt.selfInvoiceUrl} className="mono" data-testid="receipt-url" />
          </label>
          <Flex gap="3" wrap="wrap">
            <a href={`/receipts/${receipt.id}/ticket/pdf`} data-testid="ticket-pdf">
              {r.ticketPdf}
            </a>
            <a href={`/receipts/${receipt.id}/ticket/txt`} data-testid="ticket-txt">
              {r.ticketText}
            </a>
          </Flex>
        </Flex>
      </Card>
      <Card>
        <ItemsTable
          items={receipt.items.map((item) => ({
            ...item,
            amount: Number(item.quantity) * Number(item.unitPrice),
          }))}
          money={money}
          t={t}
          testId="receipt-items"
        />
        <DataList.Root mt="3" data-testid="receipt-totals">
          {row(t.subtotal, money(receipt.subtotal))}
          {row(t.total, money(receipt.total), 'receipt-total')}
        </DataList.Root>
      </Card>
      {cancellable && !confirming && (
        <Link href={`/receipts/${receipt.id}?cancel=1`} data-testid="receipt-cancel">
          {r.cancel}
        </Link>
      )}
    </Flex>
  );
}
