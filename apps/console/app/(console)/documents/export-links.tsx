import { Button, Flex, Text } from '@radix-ui/themes';
import type { Messages } from '../../../src/i18n/messages';

/**
 * Exports of the documents list: the current filter as it is (its query string), or one month. Plain links and a
 * GET form: the file streams from /documents/export/{csv|zip}.
 */
export function ExportLinks({ query, t }: { query: string; t: Messages }) {
  return (
    <Flex gap="3" align="end" wrap="wrap" data-testid="exports">
      <Text size="2">
        {t.exportFilter}: <a href={`/documents/export/csv?${query}`}>CSV</a> ·{' '}
        <a href={`/documents/export/zip?${query}`}>{t.zipXmlPdf}</a>
      </Text>
      <form method="get" action="/documents/export/zip" className="filters">
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
    </Flex>
  );
}
