import Link from 'next/link';
import { notFound } from 'next/navigation';
import { foundOrNotFound } from '../../../../src/not-found';
import { Card, DataList, Flex, Grid, Heading, Table, Text } from '@radix-ui/themes';
import {
  documentAmount,
  documentDetail,
  documentDownload,
  DOWNLOADABLE_FILES,
  relatedDocuments,
  retrieveScopedDocument,
  toRetentionView,
} from '@cfdi/services';
import { DocumentStatusBadge, kindOf } from '../../../../src/document-labels';
import { formatDateTime, formatMoney, labelOf } from '../../../../src/i18n/format';
import { currentLocale } from '../../../../src/i18n/locale';
import { em } from '../../../../src/platform';
import { currentWorkspace } from '../../../../src/workspace';
import { DocumentActions } from './document-actions';
import { DetailCards } from './detail-cards';
import { RetentionCards } from './retention-cards';

interface Cancellation {
  motivo?: string;
  folioSustitucion?: string | null;
  status?: string;
  requestedAt?: string;
  resolvedAt?: string | null;
  acuse?: { fecha?: string; estatus?: string; codigo?: string } | null;
}

export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { scope } = await currentWorkspace();
  const { t, locale } = await currentLocale();
  if (!scope) notFound();
  // Another account's, mode's or merchant's document is simply not there.
  const row = await foundOrNotFound(retrieveScopedDocument(await em(), scope, id));
  const related = await relatedDocuments(await em(), scope, row);
  const detail = row.type === 'retention' ? null : await documentDetail(await em(), scope, row);
  const cancellation = row.cancellation as Cancellation | null;
  const timeline: [string, string | Date | null | undefined][] = [
    [t.accepted, row.created_at],
    [
      row.status === 'stamp_failed' ? t.failed : t.stamped,
      row.status === 'stamp_failed' ? row.updated_at : row.stamped_at,
    ],
    ...(cancellation
      ? ([
          [t.cancelRequested, cancellation.requestedAt],
          [t.cancelled, row.status === 'cancelled' ? cancellation.resolvedAt : null],
        ] as [string, string | null | undefined][])
      : []),
  ];
  const downloads = DOWNLOADABLE_FILES.filter((file) => documentDownload(row, file));
  // A withholding certificate is told as one (period, CveRetenc, ImpRetenidos): it has no lines, PDF or e-mail.
  const retention = row.type === 'retention' ? toRetentionView(row) : null;
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {row.serie}-{row.folio_text ?? row.folio}{' '}
        <DocumentStatusBadge row={row} t={t} size="2" testId="document-status" />
      </Heading>
      <Text className="mono" data-testid="document-uuid">
        {row.uuid ?? '—'}
      </Text>
      <Grid columns="2" gap="3">
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.timeline}
          </Heading>
          <ol>
            {timeline.map(([label, at]) => (
              <li key={label}>
                {label}: {formatDateTime(at ?? null, locale)}
              </li>
            ))}
          </ol>
          {row.failure_detail && (
            <Text as="p" size="1" color="gray">
              {row.failure_detail}
            </Text>
          )}
        </Card>
        {retention ? (
          <RetentionCards retention={retention} t={t} locale={locale} />
        ) : (
          <>
            <Card>
              <Heading as="h2" size="3" mb="2">
                {t.amounts}
              </Heading>
              <DataList.Root>
                <DataList.Item>
                  <DataList.Label>{t.subtotal}</DataList.Label>
                  <DataList.Value>{formatMoney(Number(row.subtotal), locale, row.currency)}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>{t.discount}</DataList.Label>
                  <DataList.Value>{formatMoney(Number(row.discount), locale, row.currency)}</DataList.Value>
                </DataList.Item>
                <DataList.Item>
                  <DataList.Label>{t.total}</DataList.Label>
                  <DataList.Value data-testid="document-total">
                    {formatMoney(Number(row.total), locale, row.currency)}
                  </DataList.Value>
                </DataList.Item>
                {row.saldo_pendiente !== null && row.type === 'invoice' && (
                  <DataList.Item>
                    <DataList.Label>{t.outstandingBalance}</DataList.Label>
                    <DataList.Value data-testid="document-balance">
                      {formatMoney(Number(row.saldo_pendiente), locale, row.currency)}
                    </DataList.Value>
                  </DataList.Item>
                )}
                {row.metodo_pago && (
                  <DataList.Item>
                    <DataList.Label>{t.paymentMethod}</DataList.Label>
                    <DataList.Value data-testid="document-payment-method">{row.metodo_pago}</DataList.Value>
                  </DataList.Item>
                )}
                {row.forma_pago && (
                  <DataList.Item>
                    <DataList.Label>{t.paymentForm}</DataList.Label>
                    <DataList.Value>{row.forma_pago}</DataList.Value>
                  </DataList.Item>
                )}
                {row.type === 'payment' && (
                  // A payment complement's CFDI total is 0 (Pagos 2.0): what it records is the amount paid.
                  <DataList.Item>
                    <DataList.Label>{t.amountPaid}</DataList.Label>
                    <DataList.Value data-testid="document-amount-paid">
                      {formatMoney(Number(documentAmount(row)), locale, row.currency)}
                    </DataList.Value>
                  </DataList.Item>
                )}
              </DataList.Root>
            </Card>
            <Card>
              <Heading as="h2" size="3" mb="2">
                {t.receiver}
              </Heading>
              <Text as="p">{row.receiver.name}</Text>
              <Text as="p" className="mono">
                {row.receiver.rfc} · CP {row.receiver.zip} · {row.receiver.regimenFiscal}
              </Text>
            </Card>
          </>
        )}
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.downloads}
          </Heading>
          <Flex gap="3">
            {downloads.map((file) => (
              <a
                key={file}
                href={`/documents/${row.id}/download/${file}`}
                download
                data-testid={`download-${file}`}
              >
                {file.toUpperCase()}
              </a>
            ))}
          </Flex>
          {retention && (
            <Text as="p" size="1" color="gray" mt="2">
              {t.retention.xmlOnly}
            </Text>
          )}
        </Card>
      </Grid>
      {detail && <DetailCards detail={detail} currency={row.currency} t={t} locale={locale} />}
      <DocumentActions row={row} />
      {cancellation && (
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.cancellation}
          </Heading>
          <Text as="p">
            {cancellation.status && labelOf(t.cancellationStatus, cancellation.status)} · {t.reason}{' '}
            {cancellation.motivo}
            {cancellation.motivo && ` (${labelOf(t.cancellationReason, cancellation.motivo)})`}
            {cancellation.folioSustitucion ? ` · ${cancellation.folioSustitucion}` : ''}
          </Text>
          {cancellation.acuse && (
            <Text as="p">
              {t.acuse}: {cancellation.acuse.estatus} {cancellation.acuse.codigo} {cancellation.acuse.fecha}
            </Text>
          )}
        </Card>
      )}
      {related.length > 0 && (
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.related}
          </Heading>
          <Table.Root size="1">
            <Table.Body>
              {related.map((r) => (
                <Table.Row key={r.id}>
                  <Table.Cell>
                    <Link href={`/documents/${r.id}`}>
                      {r.serie}-{r.folio}
                    </Link>
                  </Table.Cell>
                  <Table.Cell>{labelOf(t.documentKind, kindOf(r))}</Table.Cell>
                  <Table.Cell>
                    <DocumentStatusBadge row={r} t={t} />
                  </Table.Cell>
                  <Table.Cell justify="end" data-testid={`related-amount-${r.id}`}>
                    {/* A payment's monto is in its own currency (MonedaP), a credit note's total in the invoice's. */}
                    {formatMoney(Number(documentAmount(r)), locale, r.currency)}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      )}
    </Flex>
  );
}
