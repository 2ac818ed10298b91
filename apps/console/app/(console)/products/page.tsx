import Link from 'next/link';
import { Table, Text } from '@radix-ui/themes';
import { listProducts } from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import { currentLocale } from '../../../src/i18n/locale';
import { recordContext } from '../../../src/records-context';
import { RecordsPage } from '../../../src/record-parts';
import { requirePermission } from '../../../src/roles';
import { param, type SearchParams } from '../../../src/search-params';
import { ProductForm } from './product-form';

export default async function ProductsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requirePermission('records.manage');
  const q = param(await searchParams, 'q');
  const { t, locale } = await currentLocale();
  const { ctx, scope } = await recordContext();
  const { data: products } = await listProducts(ctx, scope, { limit: 100, ...(q ? { q } : {}) });
  return (
    <RecordsPage
      title={t.issue.products}
      createTitle={t.issue.newProduct}
      form={<ProductForm labels={t.issue} />}
      search={{ label: t.issue.searchRecords, button: t.search }}
      q={q}
    >
      {products.length === 0 ? (
        <Text>{t.issue.noProducts}</Text>
      ) : (
        <Table.Root variant="surface" size="1">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeaderCell>{t.issue.description}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.sku}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.productCode}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.price}</Table.ColumnHeaderCell>
              <Table.ColumnHeaderCell>{t.issue.ivaRate}</Table.ColumnHeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {products.map((p) => (
              <Table.Row key={p.id} data-testid={`product-${p.sku ?? p.id}`}>
                <Table.Cell>
                  <Link href={`/products/${p.id}`}>{p.description}</Link>
                </Table.Cell>
                <Table.Cell className="mono">{p.sku ?? ''}</Table.Cell>
                <Table.Cell className="mono">
                  {p.productCode} / {p.unitCode}
                </Table.Cell>
                <Table.Cell>{formatMoney(p.price, locale)}</Table.Cell>
                <Table.Cell>{p.taxable ? `${p.ivaRate * 100} %` : t.issue.ivaExempt}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
    </RecordsPage>
  );
}
