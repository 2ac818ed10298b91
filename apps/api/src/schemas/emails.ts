import { Type, type Static } from '@sinclair/typebox';
import { MAX_RECIPIENTS } from '@cfdi/services';
import { Timestamp } from './common';
import { named } from '../openapi-components';

/** Plain addresses (checked further by the services: no display name, no line breaks, a domain with a dot). */
export const EmailAddressesSchema = (description: string, minItems = 0) =>
  Type.Array(
    Type.String({ minLength: 3, maxLength: 254, description: 'An e-mail address: facturas@example.com' }),
    {
      minItems,
      maxItems: MAX_RECIPIENTS,
      description,
    },
  );

export const EmailLocaleSchema = Type.Union([Type.Literal('es'), Type.Literal('en')], {
  description: 'Language of the subject and body: es (Spanish, the default) or en',
});

export const EmailRequestSchema = named(
  'EmailRequest',
  Type.Object(
    {
      to: Type.Optional(
        EmailAddressesSchema(
          `Recipients (1 to ${MAX_RECIPIENTS}); the merchant's emailCopyTo addresses are added`,
          1,
        ),
      ),
      locale: Type.Optional(EmailLocaleSchema),
    },
    { additionalProperties: false },
  ),
);
export type EmailRequest = Static<typeof EmailRequestSchema>;

export const EmailDeliverySchema = named(
  'EmailDelivery',
  Type.Object(
    {
      id: Type.String({ description: 'eml_…' }),
      object: Type.Literal('email_delivery'),
      livemode: Type.Boolean(),
      documentId: Type.String(),
      merchantId: Type.String(),
      trigger: Type.Union(
        [Type.Literal('request'), Type.Literal('resend'), Type.Literal('stamped'), Type.Literal('cancelled')],
        {
          description:
            "request: asked through the API or MCP; resend: an operator's `cfdi emails resend`; stamped, cancelled: the merchant's autoEmail",
        },
      ),
      to: Type.Array(Type.String()),
      locale: EmailLocaleSchema,
      status: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed')], {
        description:
          'queued (being sent, retried while the SMTP server fails temporarily), then sent or failed',
      }),
      attempts: Type.Integer({ description: 'SMTP attempts made so far' }),
      smtpResponse: Type.Union([Type.String(), Type.Null()], {
        description:
          "The SMTP server's last answer: its 250 line once sent, the refusal or connection error otherwise",
      }),
      sentAt: Type.Union([Timestamp, Type.Null()]),
      failedAt: Type.Union([Timestamp, Type.Null()]),
      createdAt: Timestamp,
    },
    { description: 'One e-mail of a stamped document and what became of it' },
  ),
);
