import { foundOrNotFound } from '../../../../src/not-found';
import { Flex, Heading } from '@radix-ui/themes';
import { retrieveProduct } from '@cfdi/services';
import { currentLocale } from '../../../../src/i18n/locale';
import { recordContext } from '../../../../src/records-context';
import { DeleteButton } from '../../../../src/record-parts';
import { requirePermission } from '../../../../src/roles';
import { removeProduct } from '../actions';
import { ProductForm } from '../product-form';

export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('records.manage');
  const { id } = await params;
  const { t } = await currentLocale();
  const { ctx, scope } = await recordContext();
  // Another account's or mode's product, or a deleted one, is not there.
  const product = await foundOrNotFound(retrieveProduct(ctx, scope, id));
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {t.issue.editProduct}: {product.description}
      </Heading>
      <ProductForm labels={t.issue} product={product} />
      <DeleteButton action={removeProduct} id={product.id} label={t.issue.delete} />
    </Flex>
  );
}
