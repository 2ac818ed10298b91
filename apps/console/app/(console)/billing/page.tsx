import Link from 'next/link';
import { Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { listPurchases, lowBalanceState, type LowBalanceState, type PurchaseView } from '@cfdi/services';
import { formatCentavos, formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { Problem } from '../../../src/problem';
import { param, type SearchParams } from '../../../src/search-params';
import { currentWorkspace } from '../../../src/workspace';
import { saveLowBalance, startCheckout } from './actions';

/** Buying timbres: a Stripe Checkout top-up, and the account's purchases with the ledger credit each one made. */
export default async function BillingPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const params = await searchParams;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const purchases: PurchaseView[] = scope ? (await listPurchases(await em(), scope, { limit: 50 })).data : [];
  const low: LowBalanceState | null = scope ? await lowBalanceState(await em(), scope) : null;
  return (
    <Flex direction="column" gap="3">
      <Heading as="h1">{t.billing}</Heading>
      <form action={startCheckout} className="filters">
        <label className="field">
          {t.topUpAmount}
          <input name="amount" inputMode="decimal" required defaultValue="1000" />
        </label>
        <Button type="submit">{t.payWithStripe}</Button>
      </form>
      <Problem
        message={
          { amount: t.topUpInvalid, unavailable: t.billingUnavailable, lowBalance: t.lowBalanceInvalid }[
            param(params, 'error') ?? ''
          ] ?? null
        }
      />
      <Heading as="h2" size="4">
        {t.lowBalanceTitle}
      </Heading>
      <Text size="2">{t.lowBalanceHelp}</Text>
      <form action={saveLowBalance} className="filters" data-testid="low-balance-form">
        <label className="field">
          {t.lowBalanceThreshold}
          <input
            name="threshold"
            inputMode="decimal"
            defaultValue={low?.thresholdCentavos == null ? '' : (low.thresholdCentavos / 100).toFixed(2)}
          />
        </label>
        <label className="field">
          {t.lowBalanceEmail}
          <input name="email" type="email" defaultValue={low?.email ?? ''} />
        </label>
        <Button type="submit" variant="soft">
          {t.save}
        </Button>
      </form>
      {param(params, 'saved') === 'lowBalance' && <Text role="status">{t.lowBalanceSaved}</Text>}
      <Heading as="h2" size="4">
        {t.purchases}
      </Heading>
      {purchases.length === 0 && <Text>{t.noPurchases}</Text>}
      {purchases.length > 0 && (
        <Table.Root variant="surface" size="1" data-testid="purchases">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.date}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.status}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t.amount}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell justify="end">{t.credited}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.ledgerCredit}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {purchases.map((p) => (
              <Table.Row key={p.id} data-testid={`purchase-${p.id}`}>
                <Table.Cell>{formatDateTime(p.createdAt, locale)}</Table.Cell>
                <Table.Cell>{labelOf(t.purchaseStatus, p.status)}</Table.Cell>
                <Table.Cell justify="end">{formatCentavos(p.amountCentavos, locale)}</Table.Cell>
                <Table.Cell justify="end">
                  {p.creditedCentavos === null ? '—' : formatCentavos(p.creditedCentavos, locale)}
                </Table.Cell>
                <Table.Cell className="mono">
                  {p.transactionId ? <Link href={`/ledger?reference=${p.id}`}>{p.transactionId}</Link> : '—'}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </Flex>
  );
}
