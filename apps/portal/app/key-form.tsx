import type { Messages } from '../src/messages';

/** A plain GET form (works without JavaScript): /r normalizes the key and opens its ticket. */
export function KeyForm({ t }: { t: Messages }) {
  return (
    <form action="/r" method="get" aria-label={t.find}>
      <div className="inline">
        <div className="field">
          <label htmlFor="key">{t.keyLabel}</label>
          <input
            id="key"
            name="key"
            required
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            aria-describedby="key-help"
            className="mono"
          />
        </div>
        <button type="submit">{t.find}</button>
      </div>
      <p id="key-help" className="help">
        {t.keyHelp}
      </p>
    </form>
  );
}
