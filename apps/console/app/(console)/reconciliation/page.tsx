import { Button, Callout, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { latestLedgerAudit, listAwaitingReconciliation, lookupAtPac } from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em, platform } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import type { SearchParams } from '../../../src/search-params';
import { resolveReconciliation } from './actions';

/** Oldest first, each with the PAC's answer now, and the two decisions of `cfdi reconcile resolve`. */
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('reconciliation.resolve');
  const { t, locale } = await currentLocale();
  const { refused, done } = await searchParams;
  const { pac } = await platform();
  const waiting = await listAwaitingReconciliation(await em());
  // Asked live for the first 20 only: one lookup each, in parallel, keeps the page quick with a long queue.
  const answers = await Promise.all(waiting.slice(0, 20).map((row) => lookupAtPac(pac, row)));
  const audit = await latestLedgerAudit(await em());
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.reconciliation}</Heading>
      {typeof refused === 'string' && (
        <Callout.Root highContrast color="red" role="alert">
          <Callout.Text data-testid="reconcile-refused">{refused}</Callout.Text>
        </Callout.Root>
      )}
      {typeof done === 'string' && (
        <Callout.Root highContrast color="green" role="status">
          <Callout.Text data-testid="reconcile-done">
            {t.decisionSent} {done}
          </Callout.Text>
        </Callout.Root>
      )}
      <Text size="2">
        {t.lastLedgerAudit}:{' '}
        {audit
          ? `${formatDateTime(audit.ranAt, locale)} · ${t.violations}: ${audit.violations || t.none}`
          : '—'}
      </Text>
      {waiting.length === 0 && <Text>{t.nothingWaiting}</Text>}
      {waiting.map((row, i) => (
        <Card key={row.id} data-testid={`reconcile-${row.id}`}>
          <Flex direction="column" gap="2">
            <Text weight="bold">
              {row.id} · {row.serie}-{row.folio} · {formatMoney(Number(row.total), locale)} ·{' '}
              {row.livemode ? t.live : t.test}
            </Text>
            <Text size="2">
              {t.account}: <span className="mono">{row.account_id}</span> · {t.waitingSince}{' '}
              {formatDateTime(row.updated_at, locale)}
            </Text>
            <Text size="2" color="gray">
              {row.failure_detail}
            </Text>
            <Text size="2">
              {t.pacAnswer}:{' '}
              {answers[i] ? (
                <>
                  <strong>{labelOf(t.pacOutcome, answers[i].outcome)}</strong>{' '}
                  <span className="mono">{answers[i].detail}</span>
                </>
              ) : (
                '—'
              )}
            </Text>
            <form action={resolveReconciliation}>
              <input type="hidden" name="documentId" value={row.id} />
              <Flex gap="3" align="end" wrap="wrap">
                <label className="field">
                  {t.decide}
                  <select name="decision" defaultValue="stamped">
                    <option value="stamped">{t.stampedWithUuid}</option>
                    <option value="not_stamped">{t.notStamped}</option>
                  </select>
                </label>
                <label className="field">
                  {t.uuid}
                  <input name="uuid" size={38} />
                </label>
                <label className="field">
                  {t.note}
                  <input name="note" required maxLength={500} />
                </label>
                <Button type="submit">{t.decide}</Button>
              </Flex>
            </form>
          </Flex>
        </Card>
      ))}
    </Flex>
  );
}
