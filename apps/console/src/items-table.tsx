import { Heading, Table } from '@radix-ui/themes';
import type { Messages } from './i18n/messages';

export interface ItemLine {
  description: string;
  quantity: string | number;
  unitPrice: string | number;
  /** The line's amount before taxes. */
  amount: string | number;
}

/** A document's or receipt's lines under their heading: description, quantity, unit price and amount. */
export function ItemsTable({
  items,
  money,
  t,
  testId,
}: {
  items: ItemLine[];
  money: (amount: string | number) => string;
  t: Messages;
  testId: string;
}) {
  return (
    <>
      <Heading as="h2" size="3" mb="2">
        {t.items}
      </Heading>
      <Table.Root size="1" data-testid={testId}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeaderCell>{t.description}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">{t.quantity}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">{t.unitPrice}</Table.ColumnHeaderCell>
            <Table.ColumnHeaderCell justify="end">{t.amount}</Table.ColumnHeaderCell>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {items.map((item, i) => (
            <Table.Row key={i}>
              <Table.Cell>{item.description}</Table.Cell>
              <Table.Cell justify="end">{Number(item.quantity)}</Table.Cell>
              <Table.Cell justify="end">{money(item.unitPrice)}</Table.Cell>
              <Table.Cell justify="end">{money(item.amount)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </>
  );
}
