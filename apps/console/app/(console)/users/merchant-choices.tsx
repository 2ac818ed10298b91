import type { MerchantChoice } from '@cfdi/services';

/** One checkbox per merchant of the account; none ticked means no limit (the service stores null). */
export function MerchantChoices({
  legend,
  merchants,
  checked,
  test,
  live,
}: {
  legend: string;
  merchants: MerchantChoice[];
  checked: string[] | null;
  test: string;
  live: string;
}) {
  if (!merchants.length) return null;
  return (
    <fieldset className="field choices">
      <legend>{legend}</legend>
      {merchants.map((m) => (
        <label key={m.id}>
          <input
            type="checkbox"
            name="merchant"
            value={m.id}
            defaultChecked={checked?.includes(m.id) ?? false}
          />{' '}
          {m.legalName} ({m.rfc}, {m.livemode ? live : test}) <span className="mono">{m.id}</span>
        </label>
      ))}
    </fieldset>
  );
}
