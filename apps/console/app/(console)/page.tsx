import { Card, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { listUsage, retrieveBalance } from '@cfdi/services';
import { formatCentavos, formatInteger } from '../../src/i18n/format';
import { currentLocale } from '../../src/i18n/locale';
import { lastMonths } from '../../src/months';
import { em, platform } from '../../src/platform';
import { currentWorkspace } from '../../src/workspace';
import { UsageChart } from './usage-chart';

export default async function OverviewPage() {
  const { scope, session } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  if (!scope) return <Heading as="h1">{t.overview}</Heading>;
  const { config } = await platform();
  const modes = session.user.livemode === null ? [false, true] : [session.user.livemode];
  const [balances, usage] = await Promise.all([
    Promise.all(
      modes.map(async (livemode) =>
        retrieveBalance(await em(), config, { accountId: scope.accountId, livemode }),
      ),
    ),
    listUsage(await em(), scope, 12),
  ]);
  const byMonth = new Map(usage.data.map((m) => [m.month, m]));
  const months = lastMonths(12);
  const chart = months.map((month) => ({
    month,
    timbres: byMonth.get(month)?.timbres ?? 0,
    spendPesos: (byMonth.get(month)?.spentCentavos ?? 0) / 100,
  }));
  const current = byMonth.get(months[months.length - 1]!);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.overview}</Heading>
      <Grid columns="3" gap="3">
        {balances.map((b) => (
          <Card key={String(b.livemode)} data-testid={`balance-${b.livemode ? 'live' : 'test'}`}>
            <Text as="p" size="2" color="gray">
              {t.balance} · {b.livemode ? t.live : t.test}
            </Text>
            <Text as="p" size="6" weight="bold" data-testid="balance-amount">
              {formatCentavos(b.balanceCentavos, locale)}
            </Text>
            <Text as="p" size="2">
              {t.timbresRemaining}:{' '}
              <strong data-testid="timbres-remaining">{formatInteger(b.timbresRemaining, locale)}</strong>
            </Text>
            <Text as="p" size="1" color="gray">
              {t.pricePerTimbre}: {formatCentavos(b.pricePerTimbreCentavos, locale)}
            </Text>
          </Card>
        ))}
        <Card>
          <Text as="p" size="2" color="gray">
            {t.thisMonth} · {scope.livemode ? t.live : t.test}
          </Text>
          <Text as="p" size="6" weight="bold">
            {formatInteger(current?.timbres ?? 0, locale)} {t.timbres.toLowerCase()}
          </Text>
          <Text as="p" size="2">
            {t.spend}: {formatCentavos(current?.spentCentavos ?? 0, locale)}
          </Text>
        </Card>
      </Grid>
      <Card>
        <Heading as="h2" size="4" mb="2">
          {t.last12Months}
        </Heading>
        <UsageChart data={chart} labels={{ timbres: t.timbres, spend: t.spend }} />
      </Card>
    </Flex>
  );
}
