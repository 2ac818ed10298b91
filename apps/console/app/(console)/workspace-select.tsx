'use client';

/**
 * A sidebar choice (account, mode, language) that applies as soon as it changes: it submits its form, whose server
 * action sets the cookie and reloads the page. Without JavaScript the form's own button (in `noscript`) does it.
 */
export function SubmitOnChange({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <label className="field">
      {label}
      <select
        name={name}
        defaultValue={value}
        onChange={(event) =>
          (event.currentTarget as unknown as { form: { requestSubmit(): void } | null }).form?.requestSubmit()
        }
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
