import { Button, Flex, Text } from '@radix-ui/themes';
import type { Messages } from '../../../src/i18n/messages';

/**
 * Exports of the documents list: the current filter as it is (its fields, hidden), or one month. POSTed to
 * /documents/export/{csv|zip}: up to EXPORT_STREAM_MAX_DOCUMENTS documents the file streams back at once; a larger
 * set is built in the background and the browser lands on the export's page (progress, then the download).
 */
export function ExportLinks({ query, t }: { query: string; t: Messages }) {
  const hidden = [...new URLSearchParams(query)].map(([name, value]) => (
    <input key={name} type="hidden" name={name} value={value} />
  ));
  return (
    <Flex gap="3" align="end" wrap="wrap" data-testid="exports">
      <form method="post" action="/documents/export/csv" className="filters">
        {hidden}
        <Text size="2">{t.exportFilter}:</Text>
        <Button type="submit" variant="soft">
          CSV
        </Button>
        <Button type="submit" variant="soft" formAction="/documents/export/zip">
          {t.zipXmlPdf}
        </Button>
      </form>
      <form method="post" action="/documents/export/zip" className="filters">
        <label className="field">
          {t.exportMonth}
          <input name="month" type="month" required />
        </label>
        <Button type="submit" variant="soft">
          {t.zipXmlPdf}
        </Button>
        <Button type="submit" variant="soft" formAction="/documents/export/csv">
          CSV
        </Button>
      </form>
      <Text size="2">
        <a href="/exports">{t.exportsTitle}</a>
      </Text>
    </Flex>
  );
}
