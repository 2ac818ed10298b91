import type { ConsoleRole } from '@cfdi/services';

export interface AccessLabels {
  role: string;
  roles: Record<ConsoleRole, string>;
  mode: string;
  any: string;
  test: string;
  live: string;
}

/** A user's role and mode (any, test or live), as the create and edit forms ask for them. */
export function AccessFields({
  labels,
  role,
  mode,
}: {
  labels: AccessLabels;
  role: ConsoleRole;
  /** '' for any mode. */
  mode: '' | 'test' | 'live';
}) {
  return (
    <>
      <label className="field">
        {labels.role}
        <select name="role" defaultValue={role}>
          {Object.entries(labels.roles).map(([value, label]) => (
            <option key={value} value={value}>
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
    </>
  );
}
