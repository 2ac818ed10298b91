import { Type } from '@sinclair/typebox';
import { sendDocumentEmail } from '../../operations/emails';
import { IdParamsSchema } from '../../schemas/common';
import { EmailDeliverySchema, EmailRequestSchema, type EmailRequest } from '../../schemas/emails';
import { defineTool, ToolInput } from '../tool';

export const sendDocumentEmailTool = defineTool({
  name: 'send_document_email',
  description:
    'E-mail a stamped or cancelled invoice, credit note, payment complement or payroll receipt: its XML and PDF (and ' +
    "the SAT's acuse once cancelled). Each call sends one more message; the delivery is queued, retried while the " +
    'mail server fails temporarily, and ends sent or failed.',
  input: ToolInput({
    id: Type.String({ ...IdParamsSchema.properties.id, description: 'The document (inv_…, pay_… or nom_…)' }),
    ...EmailRequestSchema.properties,
  }),
  output: EmailDeliverySchema,
  annotations: {
    title: 'Send document by e-mail',
    readOnlyHint: false,
    destructiveHint: false,
    // Every call sends a message: not idempotent. It reaches people outside this system.
    idempotentHint: false,
    openWorldHint: true,
  },
  run: async ({ deps, scope }, args) => {
    const { id, ...body } = args as { id: string } & EmailRequest;
    return sendDocumentEmail(deps, scope, undefined, id, body);
  },
  summarize: (delivery: { id: string; to: string[]; status: string }) =>
    `E-mail ${delivery.id} to ${delivery.to.join(', ')} is ${delivery.status}; it is sent in the background (retried if the mail server is busy).` as never,
});

export const emailTools = [sendDocumentEmailTool];
