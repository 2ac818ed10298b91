import { notFound } from 'next/navigation';
import { foundOrNotFound } from '../../../../src/not-found';
import { Flex, Heading, Text } from '@radix-ui/themes';
import { folioSeries, retrieveMerchant } from '@cfdi/services';
import { currentLocale } from '../../../../src/i18n/locale';
import { em, platform } from '../../../../src/platform';
import { requirePermission } from '../../../../src/roles';
import { currentWorkspace } from '../../../../src/workspace';
import { SettingsForms } from './settings-forms';

/** A merchant's settings: what its documents, PDFs and e-mails use. */
export default async function MerchantSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('merchants.settings');
  const { id } = await params;
  const { scope } = await currentWorkspace();
  const { t } = await currentLocale();
  if (!scope) notFound();
  const { now, fileUrls } = await platform();
  // Another account's or mode's merchant, or one outside the user's merchants, is not there.
  const merchant = await foundOrNotFound(retrieveMerchant({ em: await em(), now, fileUrls }, scope, id));
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {t.issue.merchantSettings}: {merchant.legalName}
      </Heading>
      <Text className="mono">{merchant.rfc}</Text>
      {merchant.logoUrl && (
        // The stored logo, served by the console (the API's signed URL may not be reachable from the browser).
        <img src={`/merchants/${merchant.id}/logo`} alt={t.issue.logo} className="merchant-logo" />
      )}
      <SettingsForms
        labels={t.issue}
        merchant={{
          id: merchant.id,
          serie: merchant.serie,
          autoEmail: merchant.autoEmail,
          emailCopyTo: merchant.emailCopyTo,
          brandColor: merchant.brandColor,
          pdfNote: merchant.pdfNote,
          series: await folioSeries(await em(), scope, merchant.id),
        }}
      />
    </Flex>
  );
}
