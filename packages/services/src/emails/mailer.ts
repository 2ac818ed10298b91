import nodemailer from 'nodemailer';
import type { MailMessage } from './message';

/** What the SMTP server answered: accepted (its 250 line), or refused for now (retry) or for good. */
export type SmtpAnswer =
  { outcome: 'sent'; response: string } | { outcome: 'temporary' | 'permanent'; response: string };

export interface Mailer {
  send(message: MailMessage): Promise<SmtpAnswer>;
  close(): void;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

/**
 * Sends through the SMTP server of `SMTP_URL` (nodemailer; STARTTLS whenever the server offers it, implicit TLS for
 * `smtps://`). Every refusal comes back as a value with the server's own answer: a 5xx is permanent (the address or
 * the message will not be accepted however often it is sent), a 4xx, a timeout or an unreachable server is temporary.
 */
export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 60_000 },
    { from },
  );
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          messageId: message.messageId,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
            ...(a.cid ? { cid: a.cid } : {}),
          })),
          // Headers are built by nodemailer from these fields alone, each encoded; nothing from a request is raw.
          disableFileAccess: true,
          disableUrlAccess: true,
        });
        // Recipients the server refused while taking the others are kept in the answer rather than lost.
        const refused = info.rejected.map(String);
        return {
          outcome: 'sent',
          response: refused.length ? `${info.response} (refused: ${refused.join(', ')})` : info.response,
        };
      } catch (error) {
        const smtp = error as SmtpError;
        const response = smtp.response ?? `${smtp.code ?? 'error'}: ${smtp.message}`;
        const permanent =
          smtp.responseCode !== undefined && smtp.responseCode >= 500 && smtp.responseCode < 600;
        return { outcome: permanent ? 'permanent' : 'temporary', response };
      }
    },
    close: () => transport.close(),
  };
}
