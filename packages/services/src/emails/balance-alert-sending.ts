import type { EntityManager } from '@cfdi/db';
import type { Mailer } from './mailer';
import { lockNextQueuedAlert, recordAlertSent } from '../ledger-repository';

const pesos = (centavos: string) =>
  new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(Number(centavos) / 100);

/**
 * Sends the queued warnings (the worker's minute sweep): each one locked while it is sent, so two sweeps never send
 * it twice; a refusal is recorded and not retried (the banner still shows). Answers how many were sent.
 */
export async function sendQueuedBalanceAlerts(
  em: EntityManager,
  mailer: Mailer,
  limit = 100,
): Promise<number> {
  let sent = 0;
  for (let i = 0; i < limit; i++) {
    const done = await em.transactional(async (tx) => {
      const alert = await lockNextQueuedAlert(tx);
      if (!alert) return null;
      const mode = alert.livemode ? '' : ' (modo de prueba / test mode)';
      const balance = pesos(alert.balance_centavos);
      const threshold = pesos(alert.threshold_centavos);
      const text =
        `El saldo de ${alert.name}${mode} es ${balance}, menos que el aviso de ${threshold}. ` +
        `Compra timbres en la consola para seguir timbrando.\n\n` +
        `The balance of ${alert.name}${mode} is ${balance}, below the warning of ${threshold}. ` +
        `Buy timbres in the console to keep stamping.\n`;
      const answer = await mailer.send({
        messageId: `<${alert.id}@cfdi>`,
        to: alert.recipients,
        subject: `Saldo bajo / Low balance: ${balance}`,
        text,
        html: `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n\n/g, '</p><p>')}</p>`,
        attachments: [],
      });
      await recordAlertSent(tx, alert.id, answer.outcome === 'sent', answer.response);
      return answer.outcome === 'sent';
    });
    if (done === null) break;
    if (done) sent++;
  }
  return sent;
}
