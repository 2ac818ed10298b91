import { Card, DataList, Heading, Table, Text } from '@radix-ui/themes';
import type { RetentionView } from '@cfdi/services';
import { formatMoney, labelOf } from '../../../../src/i18n/format';
import type { Locale, Messages } from '../../../../src/i18n/messages';

const TAX_NAMES: Record<string, string> = { '001': 'ISR', '002': 'IVA', '003': 'IEPS' };

/**
 * A withholding certificate's own cards (Retenciones 2.0): what it is about (CveRetenc, period), its receiver, its
 * totals and the taxes withheld (ImpRetenidos). Its amounts are in MXN: a certificate has no currency.
 */
export function RetentionCards({
  retention,
  t,
  locale,
}: {
  retention: RetentionView;
  t: Messages;
  locale: Locale;
}) {
  const r = t.retention;
  const money = (amount: number | null) => (amount === null ? '—' : formatMoney(amount, locale));
  const { period, receiver, totals } = retention;
  const item = (label: string, value: React.ReactNode, testId?: string) => (
    <DataList.Item>
      <DataList.Label>{label}</DataList.Label>
      <DataList.Value data-testid={testId}>{value}</DataList.Value>
    </DataList.Item>
  );
  return (
    <>
      <Card>
        <Heading as="h2" size="3" mb="2">
          {r.certificate}
        </Heading>
        <DataList.Root>
          {item(r.cveRetenc, retention.cveRetenc, 'retention-cve')}
          {retention.descRetenc && item(r.descRetenc, retention.descRetenc)}
          {item(
            r.period,
            `${r.months} ${period.mesIni}–${period.mesFin} · ${r.ejercicio} ${period.ejercicio}`,
            'retention-period',
          )}
          {retention.folioInt && item(r.folioInt, retention.folioInt)}
          {retention.related &&
            item(r.relatedCertificate, `${retention.related.tipoRelacion} · ${retention.related.uuid}`)}
        </DataList.Root>
      </Card>
      <Card>
        <Heading as="h2" size="3" mb="2">
          {r.receiver}
        </Heading>
        <Text as="p">{receiver.name}</Text>
        <Text as="p" className="mono" data-testid="retention-receiver">
          {labelOf(r.nacionalidad, receiver.nacionalidad)}
          {receiver.rfc ? ` · ${receiver.rfc}` : ''}
          {receiver.zip ? ` · CP ${receiver.zip}` : ''}
          {receiver.curp ? ` · ${receiver.curp}` : ''}
          {receiver.numRegIdTrib ? ` · ${r.numRegIdTrib} ${receiver.numRegIdTrib}` : ''}
        </Text>
      </Card>
      <Card>
        <Heading as="h2" size="3" mb="2">
          {r.totals}
        </Heading>
        <DataList.Root>
          {item(r.montoTotOperacion, money(totals.montoTotOperacion), 'retention-operation')}
          {item(r.montoTotGrav, money(totals.montoTotGrav))}
          {item(r.montoTotExent, money(totals.montoTotExent))}
          {item(r.montoTotRet, money(totals.montoTotRet), 'retention-withheld')}
          {totals.utilidadBimestral !== null && item(r.utilidadBimestral, money(totals.utilidadBimestral))}
          {totals.isrCorrespondiente !== null && item(r.isrCorrespondiente, money(totals.isrCorrespondiente))}
        </DataList.Root>
      </Card>
      <Card>
        <Heading as="h2" size="3" mb="2">
          {r.withheld}
        </Heading>
        {retention.withholdings.length === 0 ? (
          <Text>{r.nothingWithheld}</Text>
        ) : (
          <Table.Root size="1" data-testid="retention-withholdings">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{r.tax}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>{r.tipoPagoRet}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="end">{r.base}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="end">{r.amountWithheld}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {retention.withholdings.map((w, i) => (
                <Table.Row key={i}>
                  <Table.RowHeaderCell>
                    {w.impuestoRet ? `${TAX_NAMES[w.impuestoRet] ?? ''} ${w.impuestoRet}`.trim() : '—'}
                  </Table.RowHeaderCell>
                  <Table.Cell>{w.tipoPagoRet}</Table.Cell>
                  <Table.Cell justify="end">{money(w.baseRet)}</Table.Cell>
                  <Table.Cell justify="end">{money(w.montoRet)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Card>
    </>
  );
}
