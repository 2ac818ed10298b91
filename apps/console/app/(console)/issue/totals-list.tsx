import { DataList } from '@radix-ui/themes';
import type { DraftTotals } from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import type { IssueMessages } from '../../../src/i18n/issue-messages';
import type { Locale } from '../../../src/i18n/messages';

/** A document's totals with one line per tax and rate (IVA 16 %, IVA 0 %, IVA exempt, IEPS 8 %…). */
export function TotalsList({
  totals,
  labels,
  locale,
  currency = 'MXN',
}: {
  totals: DraftTotals;
  labels: IssueMessages;
  locale: Locale;
  /** The document's currency (moneda): its totals are in it. */
  currency?: string;
}) {
  const money = (amount: string) => formatMoney(Number(amount), locale, currency);
  return (
    <DataList.Root aria-label={labels.totals} data-testid="totals">
      <DataList.Item>
        <DataList.Label>{labels.subtotal}</DataList.Label>
        <DataList.Value>{money(totals.subtotal)}</DataList.Value>
      </DataList.Item>
      {Number(totals.discount) > 0 && (
        <DataList.Item>
          <DataList.Label>{labels.discount}</DataList.Label>
          <DataList.Value>{money(totals.discount)}</DataList.Value>
        </DataList.Item>
      )}
      {totals.taxes.map((tax) => {
        const name = labels.tax[tax.impuesto] ?? tax.impuesto;
        const rate = tax.tipoFactor === 'Exento' ? labels.exempt : `${Number(tax.tasaOCuota) * 100} %`;
        return (
          <DataList.Item key={`${tax.impuesto}-${tax.tipoFactor}-${tax.tasaOCuota ?? ''}`}>
            <DataList.Label>
              {name} {rate}
            </DataList.Label>
            <DataList.Value data-testid={`tax-${name}-${rate}`}>{money(tax.importe ?? '0')}</DataList.Value>
          </DataList.Item>
        );
      })}
      <DataList.Item>
        <DataList.Label>{labels.total}</DataList.Label>
        <DataList.Value data-testid="total">{money(totals.total)}</DataList.Value>
      </DataList.Item>
    </DataList.Root>
  );
}
