import { Button, Flex } from '@radix-ui/themes';
import type { ConsoleUserView, MerchantChoice } from '@cfdi/services';
import { updateUser } from './actions';
import { AccessFields, type AccessLabels } from './access-fields';
import { MerchantChoices } from './merchant-choices';

export interface EditUserLabels extends AccessLabels {
  edit: string;
  limitToMerchants: string;
  save: string;
}

/** Role, mode and merchant limit of one user; a plain form (the action redirects back to the list). */
export function EditUserForm({
  user,
  merchants,
  labels,
}: {
  user: ConsoleUserView;
  merchants: MerchantChoice[];
  labels: EditUserLabels;
}) {
  const mode = user.livemode === null ? '' : user.livemode ? 'live' : 'test';
  return (
    <details>
      <summary>{labels.edit}</summary>
      <form action={updateUser}>
        <input type="hidden" name="id" value={user.id} />
        <Flex direction="column" gap="2" mt="2">
          <AccessFields labels={labels} role={user.role} mode={mode} />
          <MerchantChoices
            legend={labels.limitToMerchants}
            merchants={merchants}
            checked={user.merchantIds}
            test={labels.test}
            live={labels.live}
          />
          <Button size="1" type="submit">
            {labels.save}
          </Button>
        </Flex>
      </form>
    </details>
  );
}
