import { redirect } from 'next/navigation';
import { normalizeReceiptKey, portalLogo, portalReceipts, ReceiptUnavailableError } from '@cfdi/services';
import { currentLocale, formatDate, formatMoney } from '../../../src/locale';
import { brandStyle } from '../../../src/brand';
import { em, platform } from '../../../src/platform';
import { InvoiceForm } from './invoice-form';
import { Unavailable } from './unavailable';

export const dynamic = 'force-dynamic';

/** The receipts of some keys, or null for the uniform refusal (the same for every reason, see services). */
async function receiptsOf(keys: string[]) {
  try {
    return await portalReceipts(await em(), keys);
  } catch (error) {
    if (error instanceof ReceiptUnavailableError) return null;
    throw error;
  }
}

/**
 * The tickets of the keys in the path (`/r/KEY1,KEY2`), the form that adds another of the same merchant (`?add=`)
 * and the customer's form. Which keys go together is the services' rule; this page only shows its answer.
 */
export default async function ReceiptsPage({
  params,
  searchParams,
}: {
  params: Promise<{ keys: string }>;
  searchParams: Promise<{ add?: string }>;
}) {
  const raw = decodeURIComponent((await params).keys);
  const { add } = await searchParams;
  const receipts = await receiptsOf(raw.split(','));
  if (!receipts) return <Unavailable />;
  const keys = receipts.tickets.map((ticket) => ticket.key);
  let notAdded = false;
  if (typeof add === 'string' && add.trim()) {
    const added = normalizeReceiptKey(add);
    if (added && keys.includes(added)) redirect(`/r/${keys.join(',')}`);
    if (added && (await receiptsOf([...keys, added]))) redirect(`/r/${[...keys, added].join(',')}`);
    notAdded = true;
  } else if (keys.join(',') !== raw) redirect(`/r/${keys.join(',')}`);

  const { locale, t } = await currentLocale();
  const { storage, catalogs } = await platform();
  const [logo, regimenes, usos] = await Promise.all([
    receipts.merchant.logoKey ? portalLogo(await em(), storage, keys) : null,
    catalogs.listRegimenes(),
    catalogs.listUsosCfdi(),
  ]);
  return (
    <main style={brandStyle(receipts.merchant.brandColor)}>
      <header className="card merchant">
        {logo && <img src={`data:image/png;base64,${logo.toString('base64')}`} alt="" />}
        <div>
          <h1>{receipts.merchant.name}</h1>
          <span className="muted mono">{receipts.merchant.rfc}</span>
        </div>
      </header>
      <section className="card" aria-labelledby="tickets-title">
        <h2 id="tickets-title">{keys.length > 1 ? t.tickets : t.ticket}</h2>
        {receipts.tickets.map((ticket) => (
          <div key={ticket.key} data-testid={`ticket-${ticket.key}`} className="ticket">
            <p className="muted">
              <span className="mono">{ticket.printedKey}</span> · {t.soldAt}:{' '}
              {formatDate(ticket.soldAt, locale)}
              {ticket.branch ? ` · ${t.branch}: ${ticket.branch}` : ''}
            </p>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.description}</th>
                  <th scope="col" className="num">
                    {t.quantity}
                  </th>
                  <th scope="col" className="num">
                    {t.amount}
                  </th>
                </tr>
              </thead>
              <tbody>
                {ticket.lines.map((line, i) => (
                  <tr key={i}>
                    <td>{line.description}</td>
                    <td className="num">{line.quantity}</td>
                    <td className="num">{formatMoney(line.amount, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="total">
              <span>{t.total}</span>
              <span>{formatMoney(ticket.total, locale)}</span>
            </div>
            <p className="muted">
              {t.expiresAt} {formatDate(ticket.expiresAt, locale, false)}
            </p>
          </div>
        ))}
        {keys.length > 1 && (
          <div className="total" data-testid="invoice-total">
            <span>{t.totalInvoice}</span>
            <span>{formatMoney(receipts.total, locale)}</span>
          </div>
        )}
      </section>
      <section className="card" aria-labelledby="add-title">
        <h2 id="add-title">{t.addTicket}</h2>
        {notAdded && (
          <p className="alert" role="alert">
            {t.notAdded}
          </p>
        )}
        <form action={`/r/${keys.join(',')}`} method="get" aria-label={t.addTicket}>
          <div className="inline">
            <div className="field">
              <label htmlFor="add">{t.addKeyLabel}</label>
              <input
                id="add"
                name="add"
                required
                autoComplete="off"
                spellCheck={false}
                maxLength={40}
                className="mono"
              />
            </div>
            <button type="submit" className="secondary">
              {t.add}
            </button>
          </div>
        </form>
      </section>
      <InvoiceForm
        t={t}
        keys={keys}
        regimenes={regimenes.map(({ clave, nombre, fisica, moral }) => ({ clave, nombre, fisica, moral }))}
        usos={usos.map(({ clave, nombre, fisica, moral }) => ({ clave, nombre, fisica, moral }))}
      />
    </main>
  );
}
