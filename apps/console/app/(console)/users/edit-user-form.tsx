import { Button, Flex } from '@radix-ui/themes';
import type { ConsoleRole, ConsoleUserView, MerchantChoice } from '@cfdi/services';
import { updateUser } from './actions';
import { MerchantChoices } from './merchant-choices';

export interface EditUserLabels {
  edit: string;
  role: string;
  roles: Record<ConsoleRole, string>;
  mode: string;
  any: string;
  test: string;
  live: string;
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
          <label className="field">
            {labels.role}
            <select name="role" defaultValue={user.role}>
              {Object.entries(labels.roles).map(([role, label]) => (
                <option key={role} value={role}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            {labels.mode}
            <select name="mode" defaultValue={mode}>
              <option value="">{labels.any}</option>
              <option value="test">{labels.test}</option>
              <option value="live">{labels.live}</option>
            </select>
          </label>
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
