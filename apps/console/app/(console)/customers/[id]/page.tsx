import { foundOrNotFound } from '../../../../src/not-found';
import { Flex, Heading } from '@radix-ui/themes';
import { retrieveCustomer } from '@cfdi/services';
import { currentLocale } from '../../../../src/i18n/locale';
import { catalogChoices, recordContext } from '../../../../src/records-context';
import { DeleteButton } from '../../../../src/record-parts';
import { requirePermission } from '../../../../src/roles';
import { removeCustomer } from '../actions';
import { CustomerForm } from '../customer-form';

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  await requirePermission('records.manage');
  const { id } = await params;
  const { t } = await currentLocale();
  const { ctx, scope } = await recordContext();
  // Another account's or mode's customer, or a deleted one, is not there.
  const customer = await foundOrNotFound(retrieveCustomer(ctx, scope, id));
  const { regimenes, usos } = await catalogChoices();
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">
        {t.issue.editCustomer}: {customer.legalName}
      </Heading>
      <CustomerForm labels={t.issue} customer={customer} regimenes={regimenes} usos={usos} />
      <DeleteButton action={removeCustomer} id={customer.id} label={t.issue.delete} />
    </Flex>
  );
}
