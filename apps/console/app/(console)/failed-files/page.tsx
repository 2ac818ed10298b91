import { Button, Callout, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { failedFilesPage, filesCannotRender } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { renderAgain } from './actions';
import { ListTable, listWindow } from '../../../src/list-table';

/** Stamped documents whose files failed after every retry, platform-wide (`cfdi files failed`), each with "render again". */
export default async function FailedFilesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('files.render_again');
  const { t, locale } = await currentLocale();
  const params = await searchParams;
  const { refused, done } = params;
  const window = listWindow(params);
  const failed = await failedFilesPage(await em(), window);
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{t.failedFiles}</Heading>
      {typeof refused === 'string' && (
        <Callout.Root highContrast color="red" role="alert">
          <Callout.Text data-testid="render-refused">
            <span className="mono">{param(params, 'doc')}: </span>
            {labelOf(t.renderRefusal, refused)}
          </Callout.Text>
        </Callout.Root>
      )}
      {typeof done === 'string' && (
        <Callout.Root highContrast color="green" role="status">
          <Callout.Text data-testid="render-done">
            {t.renderRequested} {done}
          </Callout.Text>
        </Callout.Root>
      )}
      <ListTable
        list={{ path: '/failed-files', params, window, t, locale }}
        page={failed}
        empty={t.noResults}
        columns={[
          { label: t.documents },
          { label: t.uuid },
          { label: t.account },
          { label: t.mode },
          { label: t.waitingSince },
          { label: t.renderAgain },
        ]}
      >
        {failed.rows.map((row) => (
          <Table.Row key={row.id} data-testid={`failed-${row.id}`}>
            <Table.Cell className="mono">{row.id}</Table.Cell>
            <Table.Cell className="mono">{row.uuid}</Table.Cell>
            <Table.Cell className="mono">{row.account_id}</Table.Cell>
            <Table.Cell>{row.livemode ? t.live : t.test}</Table.Cell>
            <Table.Cell>{formatDateTime(row.updated_at, locale)}</Table.Cell>
            <Table.Cell>
              {/* Offered only where it can work: a stamp confirmed without the PAC's XML has nothing to render. */}
              {filesCannotRender(row) ? (
                <Text size="1" data-testid="cannot-render">
                  {t.cannotRenderWithoutXml}
                </Text>
              ) : (
                <form action={renderAgain}>
                  <input type="hidden" name="documentId" value={row.id} />
                  <Button size="1" variant="soft" type="submit" aria-label={`${t.renderAgain} ${row.id}`}>
                    {t.renderAgain}
                  </Button>
                </form>
              )}
            </Table.Cell>
          </Table.Row>
        ))}
      </ListTable>
    </Flex>
  );
}
