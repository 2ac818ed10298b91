import { Button, Flex, Heading, Table, Text } from '@radix-ui/themes';
import { failedFilesPage, filesCannotRender } from '@cfdi/services';
import { formatDateTime, labelOf } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { em } from '../../../src/platform';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { renderAgain } from './actions';
import { ListTable, listWindow } from '../../../src/list-table';
import { OutcomeNotices } from '../../../src/outcome-notices';

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
      <OutcomeNotices
        testIds={{ refused: 'render-refused', done: 'render-done' }}
        refused={
          typeof refused === 'string' ? (
            <>
              <span className="mono">{param(params, 'doc')}: </span>
              {labelOf(t.renderRefusal, refused)}
            </>
          ) : null
        }
        done={
          typeof done === 'string' ? (
            <>
              {t.renderRequested} {done}
            </>
          ) : null
        }
      />
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
