import type { ReactNode } from 'react';
import Link from 'next/link';
import { headers } from 'next/headers';
import { Badge, Button, Callout, Flex, Heading, Text } from '@radix-ui/themes';
import { can, lowBalanceState } from '@cfdi/services';
import { formatCentavos, labelOf } from '../../src/i18n/format';
import { em } from '../../src/platform';
import { currentLocale } from '../../src/i18n/locale';
import { PATH_HEADER } from '../../src/session';
import { currentWorkspace } from '../../src/workspace';
import { signOut } from '../login/actions';
import { chooseWorkspace } from './workspace-actions';
import { SubmitOnChange } from './workspace-select';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { session, scope, accounts } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  const { user } = session;
  const platform = can(user, 'accounts.any');
  const back = (await headers()).get(PATH_HEADER) ?? '/';
  // The balance's low-balance warning, on every page while the balance is under it.
  const low = scope ? await lowBalanceState(await em(), scope) : null;
  const links: [string, string][] = [
    ['/', t.overview],
    ['/ledger', t.ledger],
    ['/documents', t.documents],
    ['/receipts', t.receipts.receipts],
    ['/receivables', t.receivables],
    ['/billing', t.billing],
    ['/merchants', t.merchants],
    ['/keys', t.apiKeys],
    ['/connections', t.connections],
    ['/webhooks', t.webhooks],
    ...(
      [
        ['/issue', t.issue.newInvoice, 'documents.issue'],
        ['/customers', t.issue.customers, 'records.manage'],
        ['/products', t.issue.products, 'records.manage'],
        ['/reconciliation', t.reconciliation, 'reconciliation.resolve'],
        ['/failed-files', t.failedFiles, 'files.render_again'],
        ['/audit', t.audit, 'audit.read'],
        ['/users', t.users, 'console_users.manage'],
      ] as const
    )
      .filter(([, , action]) => can(user, action))
      .map(([path, label]): [string, string] => [path, label]),
  ];
  return (
    <div className="shell">
      <aside className="sidebar">
        <Heading as="h2" size="4">
          {t.appName}
        </Heading>
        <Text size="1" color="gray">
          {user.email} <Badge>{labelOf(t.consoleRole, user.role)}</Badge>
        </Text>
        <form action={chooseWorkspace}>
          <Flex direction="column" gap="2">
            <input type="hidden" name="back" value={back} />
            {platform && (
              <SubmitOnChange
                name="account"
                label={t.account}
                value={scope?.accountId}
                options={accounts.map((a) => ({ value: a.id, label: `${a.name} (${a.id})` }))}
              />
            )}
            {user.livemode === null && (
              <SubmitOnChange
                name="mode"
                label={t.mode}
                value={scope?.livemode ? 'live' : 'test'}
                options={[
                  { value: 'test', label: t.test },
                  { value: 'live', label: t.live },
                ]}
              />
            )}
            <SubmitOnChange
              name="lang"
              label={t.language}
              value={locale}
              options={[
                { value: 'es', label: 'Español' },
                { value: 'en', label: 'English' },
              ]}
            />
            <noscript>
              <Button type="submit" size="1" variant="soft">
                {t.apply}
              </Button>
            </noscript>
          </Flex>
        </form>
        <nav aria-label="Menu">
          {links.map(([href, label]) => (
            <Link key={href} href={href}>
              {label}
            </Link>
          ))}
        </nav>
        <form action={signOut}>
          <Button type="submit" variant="outline" size="1">
            {t.signOut}
          </Button>
        </form>
      </aside>
      <main className="content">
        {scope && (
          <Text as="p" size="1" color="gray" mb="3">
            {t.account}: <span className="mono">{scope.accountId}</span> · {scope.livemode ? t.live : t.test}
          </Text>
        )}
        {low?.below && (
          <Callout.Root color="amber" highContrast mb="3" role="status" data-testid="low-balance-banner">
            <Callout.Text>
              <strong>{t.lowBalanceBanner}:</strong> {formatCentavos(low.balanceCentavos, locale)} &lt;{' '}
              {formatCentavos(low.thresholdCentavos!, locale)} · <Link href="/billing">{t.buyTimbres}</Link>
            </Callout.Text>
          </Callout.Root>
        )}
        {children}
      </main>
    </div>
  );
}
