import { Context } from '@temporalio/activity';
import { attemptEmailDelivery, queueAutomaticEmail } from '@cfdi/services';
import { startEmailDelivery } from '@cfdi/temporal-contract/client';
import type { Activities } from '@cfdi/temporal-contract';
import type { ActivityDeps } from './deps';

type EmailActivities = Pick<Activities, 'attemptEmailDelivery' | 'queueAutomaticEmail'>;

export function emailActivities(deps: ActivityDeps): EmailActivities {
  const em = () => deps.orm.em.fork();
  return {
    async attemptEmailDelivery({ deliveryId, finalAttempt }) {
      return attemptEmailDelivery(em(), deps.emails, deliveryId, finalAttempt);
    },

    /**
     * Safe to repeat (a retried activity, a replayed or re-run stamp workflow): the row is unique per document and
     * trigger, and its workflow id derives from it, so the message is recorded and sent once.
     */
    async queueAutomaticEmail({ documentId, trigger, taskQueue }) {
      if (!deps.emails.mailer) return null;
      const delivery = await queueAutomaticEmail(em(), documentId, trigger);
      if (!delivery) return null;
      if (delivery.status === 'queued')
        await startEmailDelivery(
          Context.current().client,
          { deliveryId: delivery.id, retry: deps.config.mail.retry },
          taskQueue,
        );
      return delivery.id;
    },
  };
}
