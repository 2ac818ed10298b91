import type { FastifyInstance, FastifyReply } from 'fastify';
import { OAuthError } from '@cfdi/services';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * HTML forms and the OAuth token and revocation endpoints post `application/x-www-form-urlencoded`. A field sent
 * more than once (the consent page's merchant checkboxes) becomes an array. Bytes that are not UTF-8 are refused, as
 * for JSON bodies.
 */
export function acceptForms(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (_request, body, done) => {
      let text: string;
      try {
        text = UTF8.decode(body as Buffer);
      } catch {
        // A 400 both error handlers understand: OAuth's invalid_request (token routes), problem+json (consent page).
        const error = Object.assign(new Error('The request body is not valid UTF-8.'), { statusCode: 400 });
        return done(error, undefined);
      }
      const fields: Record<string, string | string[]> = {};
      for (const [name, value] of new URLSearchParams(text)) {
        const previous = fields[name];
        fields[name] =
          previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
      }
      done(null, fields);
    },
  );
}

/** OAuth endpoints answer errors as `{error, error_description}` (RFC 6749 §5.2), never as problem+json. */
export function answerOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: Error & { validation?: unknown; statusCode?: number }, request, reply) => {
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    if (error.validation || (error.statusCode && error.statusCode < 500)) {
      return sendOAuthError(reply, new OAuthError('invalid_request', error.message));
    }
    request.log.error({ err: error }, 'unhandled error in an OAuth endpoint');
    return sendOAuthError(
      reply,
      new OAuthError('server_error', 'An unexpected error occurred. It has been logged.', 500),
    );
  });
}

function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply
    .code(error.status)
    .header('cache-control', 'no-store')
    .send({ error: error.error, error_description: error.message });
}

/** One cookie of the request's Cookie header. */
export function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/** A single value of a form field that may have been sent more than once. */
export const field = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value) ?? '';
export const fields = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
