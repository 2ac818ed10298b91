import { currentLocale } from '../../../src/locale';
import { KeyForm } from '../../key-form';

/**
 * The one answer for a key the portal will not invoice, whatever the reason (unknown, mistyped, expired, invoiced,
 * in a global invoice, cancelled, or another merchant's beside the others): it lists the reasons a customer may
 * check, and says nothing about which one applies. Rendered by the page itself (not Next's notFound(), whose
 * streamed answer would only show with JavaScript).
 */
export async function Unavailable() {
  const { t } = await currentLocale();
  return (
    <main>
      <h1>{t.unavailableTitle}</h1>
      <div className="card" data-testid="unavailable">
        <p>{t.unavailable}</p>
      </div>
      <div className="card">
        <h2>{t.tryAnother}</h2>
        <KeyForm t={t} />
      </div>
    </main>
  );
}
