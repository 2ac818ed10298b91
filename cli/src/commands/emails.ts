import type { Command } from 'commander';
import { resendEmail, toEmailDeliveryView } from '@cfdi/services';
import { startEmailDelivery } from '@cfdi/temporal-contract/client';
import type { CliContext } from '../context';

export function registerEmailsCommands(program: Command, ctx: CliContext): void {
  const emails = program.command('emails');

  emails
    .command('resend')
    .description(
      'Send a document e-mail again, to the same recipients and in the same language, as a new delivery (e.g. one that failed while the SMTP server was down)',
    )
    .argument('<id>', 'the delivery to repeat (eml_…)')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }) => {
      const delivery = await resendEmail(await ctx.em(), id);
      await startEmailDelivery(
        await ctx.temporal(),
        { deliveryId: delivery.id, retry: ctx.config.mail.retry },
        ctx.config.temporal.taskQueue,
      );
      const view = toEmailDeliveryView(delivery);
      ctx.print(
        options.json
          ? view
          : `${view.id}: queued for ${view.to.join(', ')} (document ${view.documentId}); follow it with GET …/${view.documentId}/emails`,
        Boolean(options.json),
      );
    });
}
