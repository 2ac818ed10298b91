import { Card, Heading, Table, Text } from '@radix-ui/themes';
import type { DocumentDetail } from '@cfdi/services';
import { formatDateTime, formatMoney, labelOf } from '../../../../src/i18n/format';
import type { Locale, Messages } from '../../../../src/i18n/messages';
import { ItemsTable } from '../../../../src/items-table';

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
  const money = (text: string | number) => formatMoney(Number(text), locale, currency);
  return (
    <>
      {detail.items.length > 0 && (
        <Card>
          <ItemsTable items={detail.items} money={money} t={t} testId="document-items" />
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
