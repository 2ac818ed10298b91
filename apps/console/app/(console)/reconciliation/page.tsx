import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { awaitingReconciliationPage, latestLedgerAudit, lookupAtPac } from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em, platform } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { chooseWorkspace } from '../workspace-actions';
import { resolveReconciliation } from './actions';
import { ListFrame, listWindow } from '../../../src/list-table';
import { OutcomeNotices } from '../../../src/outcome-notices';

/** Oldest first, each with the PAC's answer now, and the two decisions of `cfdi reconcile resolve`. */
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('reconciliation.resolve');
  const { t, locale } = await currentLocale();
  const params = await searchParams;
  const { refused, done } = params;
  // After a refusal the page puts back what was typed on that document's form.
  const typed = typeof refused === 'string' ? param(params, 'doc') : undefined;
  const { pac } = await platform();
  // 20 a page, each asked live: one lookup each, in parallel, keeps the page quick with a long queue.
  const window = listWindow(params, 20);
  const waiting = await awaitingReconciliationPage(await em(), window);
  const answers = await Promise.all(waiting.rows.map((row) => lookupAtPac(pac, row)));
  const audit = await latestLedgerAudit(await em());
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.reconciliation}</Heading>
      <OutcomeNotices
        testIds={{ refused: 'reconcile-refused', done: 'reconcile-done' }}
        refused={
          typeof refused === 'string' ? (
            <>
              {typed && <span className="mono">{typed}: </span>}
              {labelOf(t.reconcileRefusal, refused)}
            </>
          ) : null
        }
        done={
          typeof done === 'string' ? (
            <>
              {t.decisionSent} {done}
            </>
          ) : null
        }
      />
      <Text size="2">
        {t.lastLedgerAudit}:{' '}
        {audit
          ? `${formatDateTime(audit.ranAt, locale)} · ${t.violations}: ${audit.violations || t.none}`
          : '—'}
      </Text>
      <ListFrame
        list={{ path: '/reconciliation', params, window, t, locale }}
        page={waiting}
        empty={t.nothingWaiting}
      >
        {waiting.rows.map((row, i) => {
          const answer = answers[i];
          const kept = (name: string) => (typed === row.id ? param(params, name) : undefined);
          return (
            <Card key={row.id} data-testid={`reconcile-${row.id}`}>
              <Flex direction="column" gap="2">
                {/* The row leads to its document, in that document's account and mode (the workspace follows). */}
                <form action={chooseWorkspace}>
                  <input type="hidden" name="account" value={row.account_id} />
                  <input type="hidden" name="mode" value={row.livemode ? 'live' : 'test'} />
                  <input type="hidden" name="back" value={`/documents/${row.id}`} />
                  <button type="submit" className="link-button" data-testid="reconcile-open">
                    {row.id} · {row.serie}-{row.folio} · {formatMoney(Number(row.total), locale)} ·{' '}
                    {row.livemode ? t.live : t.test}
                  </button>
                </form>
                <Text size="2">
                  {t.account}: <span className="mono">{row.account_id}</span> · {t.waitingSince}{' '}
                  {formatDateTime(row.updated_at, locale)}
                </Text>
                <Text size="2" color="gray">
                  {row.failure_detail}
                </Text>
                <Text size="2">
                  {t.pacAnswer}:{' '}
                  {answer ? (
                    <>
                      <strong>{labelOf(t.pacOutcome, answer.outcome)}</strong>{' '}
                      <span className="mono">{answer.detail}</span>
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
                      <select
                        name="decision"
                        defaultValue={
                          kept('decision') ?? (answer?.outcome === 'not_stamped' ? 'not_stamped' : 'stamped')
                        }
                      >
                        <option value="stamped">{t.stampedWithUuid}</option>
                        <option value="not_stamped">{t.notStamped}</option>
                      </select>
                    </label>
                    <label className="field">
                      {t.uuid}
                      {/* The PAC's UUID when it holds the stamp: the operator checks it rather than retypes it. */}
                      <input
                        name="uuid"
                        size={38}
                        defaultValue={
                          kept('uuid') ?? (answer?.outcome === 'stamped' ? answer.detail : undefined)
                        }
                      />
                    </label>
                    <label className="field">
                      {t.note}
                      <input name="note" required maxLength={500} defaultValue={kept('note')} />
                    </label>
                    <Button type="submit">{t.decide}</Button>
                  </Flex>
                </form>
              </Flex>
            </Card>
          );
        })}
      </ListFrame>
    </Flex>
  );
}
