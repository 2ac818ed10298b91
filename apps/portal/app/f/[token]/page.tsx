import { AppError, portalInvoice, queuePortalEmail, readPortalPass } from '@cfdi/services';
import { startEmailDelivery } from '@cfdi/temporal-contract/client';
import { currentLocale, formatMoney } from '../../../src/locale';
import { em, platform } from '../../../src/platform';

export const dynamic = 'force-dynamic';

/**
 * The customer's invoice, under the pass the form's action made: still stamping (the page reloads itself), stamped
 * (downloads, and the e-mail queued once), or refused by the SAT (why, and back to the tickets, open again).
 */
export default async function InvoicePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { locale, t } = await currentLocale();
  const { config, redis, temporal } = await platform();
  const pass = await readPortalPass(redis, token);
  if (!pass)
    return (
      <main>
        <h1>{t.title}</h1>
        <p className="card">{t.expiredLink}</p>
      </main>
    );
  const invoice = await portalInvoice(await em(), pass);
  if (invoice.status === 'stamping')
    return (
      <main>
        <meta httpEquiv="refresh" content="3" />
        <h1>{t.stampingTitle}</h1>
        <p className="card" role="status">
          {t.stamping}
        </p>
      </main>
    );
  if (invoice.status === 'failed')
    return (
      <main>
        <h1>{t.failedTitle}</h1>
        <div className="card">
          <p>{t.failed}</p>
          {invoice.failure?.message && (
            <p>
              {t.satSays}:{' '}
              <span className="mono" data-testid="failure">
                {invoice.failure.code ? `${invoice.failure.code} ` : ''}
                {invoice.failure.message}
              </span>
            </p>
          )}
          <a className="button" href={`/r/${pass.keys.join(',')}`}>
            {t.fixData}
          </a>
        </div>
      </main>
    );

  let emailed: string | null = pass.email;
  try {
    const queued = await queuePortalEmail(await em(), redis, token, pass, {
      configured: Boolean(config.mail.smtpUrl),
    });
    if (queued) {
      await startEmailDelivery(
        temporal,
        { deliveryId: queued.deliveryId, retry: config.mail.retry },
        config.temporal.taskQueue,
      );
      emailed = queued.to.join(', ');
    }
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    emailed = null;
  }
  return (
    <main>
      <h1>{t.stampedTitle}</h1>
      <div className="card">
        <dl>
          <dt>{t.folioFiscal}</dt>
          <dd className="mono" data-testid="uuid">
            {invoice.uuid}
          </dd>
          <dt>{t.receiver}</dt>
          <dd data-testid="receiver">
            <span className="mono">{invoice.receiver.rfc}</span> · {invoice.receiver.name}
          </dd>
          <dt>{t.total}</dt>
          <dd>{formatMoney(invoice.total, locale)}</dd>
        </dl>
        <div className="actions">
          <a className="button" href={`/f/${token}/xml`} download>
            {t.downloadXml}
          </a>
          <a className="button" href={`/f/${token}/pdf`} download>
            {t.downloadPdf}
          </a>
        </div>
        {pass.email && (
          <p role="status" data-testid="emailed">
            {emailed ? `${t.emailed} ${emailed}` : t.emailFailed}
          </p>
        )}
      </div>
    </main>
  );
}
