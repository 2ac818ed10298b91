import { Card, Heading, Table, Text } from '@radix-ui/themes';
import type { DocumentDetail } from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../../src/i18n/format';
import type { Locale, Messages } from '../../../../src/i18n/messages';

const TAX_NAMES: Record<string, string> = { '002': 'IVA', '003': 'IEPS' };

/** A rate as people read it: `0.160000` → `16%`. */
const percent = (tasa: string) => `${Number((Number(tasa) * 100).toFixed(4))}%`;

/** The lines, taxes per rate and e-mails of a document's page. */
export function DetailCards({
  detail,
  currency,
  t,
  locale,
}: {
  detail: DocumentDetail;
  /** The document's currency: its lines and taxes are in it. */
  currency: string;
  t: Messages;
  locale: Locale;
}) {
  const money = (text: string) => formatMoney(Number(text), locale, currency);
  return (
    <>
      {detail.items.length > 0 && (
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.items}
          </Heading>
          <Table.Root size="1" data-testid="document-items">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>{t.description}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="end">{t.quantity}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="end">{t.unitPrice}</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="end">{t.amount}</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {detail.items.map((item, i) => (
                <Table.Row key={i}>
                  <Table.Cell>{item.description}</Table.Cell>
                  <Table.Cell justify="end">{Number(item.quantity)}</Table.Cell>
                  <Table.Cell justify="end">{money(item.unitPrice)}</Table.Cell>
                  <Table.Cell justify="end">{money(item.amount)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      )}
      {detail.taxes.length > 0 && (
        <Card>
          <Heading as="h2" size="3" mb="2">
            {t.taxes}
          </Heading>
          <Table.Root size="1" data-testid="document-taxes">
            <Table.Body>
              {detail.taxes.map((tax, i) => (
                <Table.Row key={i}>
                  <Table.RowHeaderCell>
                    {TAX_NAMES[tax.impuesto] ?? tax.impuesto}{' '}
                    {tax.tipoFactor === 'Exento' ? t.exempt : percent(tax.tasaOCuota ?? '0')}
                  </Table.RowHeaderCell>
                  <Table.Cell justify="end">
                    {t.taxBase} {money(tax.base)}
                  </Table.Cell>
                  <Table.Cell justify="end">
                    {tax.importe !== undefined ? money(tax.importe) : '—'}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Card>
      )}
      <Card>
        <Heading as="h2" size="3" mb="2">
          {t.emailsSent}
        </Heading>
        {detail.emails.length === 0 && <Text>{t.noEmails}</Text>}
        {detail.emails.map((email) => (
          <Text as="p" key={email.id} data-testid="document-email">
            {formatDateTime(email.at, locale)} · {labelOf(t.emailStatus, email.status)} ·{' '}
            <span className="mono">{email.recipients.join(', ')}</span>
          </Text>
        ))}
      </Card>
    </>
  );
}
