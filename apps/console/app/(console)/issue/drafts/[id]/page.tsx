import Link from 'next/link';
import { notFound } from 'next/navigation';
import { foundOrNotFound } from '../../../../../src/not-found';
import { Badge, Button, DataList, Flex, Heading } from '@radix-ui/themes';
import { ConflictError, loadDraft, totalsOf } from '@cfdi/services';
import { kindOf } from '../../../../../src/document-labels';
import { labelOf } from '../../../../../src/i18n/format';
import { Problem } from '../../../../../src/problem';
import { DeleteButton } from '../../../../../src/record-parts';
import { currentLocale } from '../../../../../src/i18n/locale';
import { em } from '../../../../../src/platform';
import { requirePermission } from '../../../../../src/roles';
import { param, type SearchParams } from '../../../../../src/search-params';
import { currentWorkspace } from '../../../../../src/workspace';
import { TotalsList } from '../../totals-list';
import { editableBody } from '../../editable-draft';
import { deleteDraftAction, stampDraftAction } from '../actions';

/** A saved draft: its receiver and totals per tax, its PDF preview, and stamping it. */
export default async function DraftPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
}) {
  await requirePermission('documents.issue');
  const { id } = await params;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  if (!scope) notFound();
  // Another account's draft is not there; one already stamped is its document now.
  const { row } = await foundOrNotFound(loadDraft(await em(), scope, id), ConflictError);
  const { receiver } = row;
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {t.issue.draft}: {labelOf(t.documentKind, kindOf(row))} <Badge>{row.serie}</Badge>
      </Heading>
      <Problem message={param(await searchParams, 'error')} />
      <DataList.Root>
        <DataList.Item>
          <DataList.Label>{t.issue.customer}</DataList.Label>
          <DataList.Value>
            <span className="mono">{receiver.rfc}</span>&nbsp;· {receiver.name}
          </DataList.Value>
        </DataList.Item>
        <DataList.Item>
          <DataList.Label>{t.issue.metodoPago}</DataList.Label>
          <DataList.Value>
            {row.metodo_pago} · {row.forma_pago}
          </DataList.Value>
        </DataList.Item>
      </DataList.Root>
      <TotalsList totals={totalsOf(row)} labels={t.issue} locale={locale} currency={row.currency} />
      <Flex gap="3" wrap="wrap" align="center">
        {editableBody(row.request ?? {}) && (
          <Link href={`/issue?draft=${row.id}`} data-testid="edit-draft">
            {t.issue.editDraft}
          </Link>
        )}
        <a href={`/issue/drafts/${row.id}/preview`} target="_blank" rel="noreferrer">
          {t.issue.previewPdf}
        </a>
        <form action={stampDraftAction}>
          <input type="hidden" name="id" value={row.id} />
          <Button type="submit">{t.issue.stamp}</Button>
        </form>
        <DeleteButton action={deleteDraftAction} id={row.id} label={t.issue.delete} />
      </Flex>
    </Flex>
  );
}
