import Link from 'next/link';
import { Table } from '@radix-ui/themes';
import { countProducts, listProducts } from '@cfdi/services';
import { formatMoney } from '../../../src/i18n/format';
import { recordsListing } from '../../../src/records-context';
import { RecordsPage } from '../../../src/record-parts';
import { ListTable } from '../../../src/list-table';
import type { SearchParams } from '../../../src/search-params';
import { ProductForm } from './product-form';

export default async function ProductsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const {
    params,
    q,
    window,
    t,
    locale,
    rows: products,
    count,
  } = await recordsListing(searchParams, { list: listProducts, count: countProducts });
  return (
    <RecordsPage
      title={t.issue.products}
      createTitle={t.issue.newProduct}
      form={<ProductForm labels={t.issue} />}
      search={{ label: t.issue.searchRecords, button: t.search }}
      q={q}
    >
      <ListTable
        list={{ path: '/products', params, window, t, locale }}
        page={{ rows: products, ...count }}
        empty={t.issue.noProducts}
        columns={[
          { label: t.issue.description },
          { label: t.issue.sku },
          { label: t.issue.productCode },
          { label: t.issue.price },
          { label: t.issue.ivaRate },
        ]}
      >
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
      </ListTable>
    </RecordsPage>
  );
}
