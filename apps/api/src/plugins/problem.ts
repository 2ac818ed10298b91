import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, idempotencyKeyProblem, type FieldError, type ProblemCode } from '@cfdi/services';
import { currentTraceId } from '@cfdi/telemetry';
import { IdempotencyHeadersSchema } from '../schemas/documents';
import { toFieldErrors } from './validation';

interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  errors?: FieldError[];
  subcode?: string;
  satCode?: string;
}

export function problemBody(docsUrl: string, error: AppError): Problem {
  const problem: Problem = {
    type: `${docsUrl}/errors/${error.code}`,
    title: error.title,
    status: error.status,
    code: error.code,
    detail: error.message,
  };
  if (error.extra.errors) problem.errors = error.extra.errors;
  if (error.extra.subcode) problem.subcode = error.extra.subcode;
  if (error.extra.satCode) problem.satCode = error.extra.satCode;
  return problem;
}

/**
 * The problem as this request answers it: with the request's trace id when the API traces, so a caller quoting it
 * leads support to the whole trace. Added when sent, not stored: a replayed answer carries the replay's trace.
 */
export function withTraceId<T extends object>(problem: T): T & { traceId?: string } {
  const traceId = currentTraceId();
  return traceId ? { ...problem, traceId } : problem;
}

export function sendProblem(reply: FastifyReply, docsUrl: string, error: AppError): FastifyReply {
  const problem = withTraceId(problemBody(docsUrl, error));
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  return reply.code(error.status).type('application/problem+json').serializer(JSON.stringify).send(problem);
}

/** One place that turns every failure into `application/problem+json`, hiding 5xx internals. */
export function installProblemHandlers(app: FastifyInstance, docsUrl: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendProblem(reply, docsUrl, error);
    if (error.validation) {
      const errors = toFieldErrors(error.validation as never);
      // The body or query failed first; a bad Idempotency-Key header is one more invalid field of the same request.
      const keyProblem =
        request.routeOptions.schema?.headers === IdempotencyHeadersSchema
          ? idempotencyKeyProblem(request.headers['idempotency-key'] as string | undefined)
          : null;
      if (keyProblem) errors.push({ path: '/headers/idempotency-key', message: keyProblem });
      const where = error.validationContext === 'body' ? 'request body' : error.validationContext;
      return sendProblem(
        reply,
        docsUrl,
        new AppError(
          400,
          'validation_error',
          'Validation failed',
          `The ${where} is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
          { errors },
        ),
      );
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendProblem(
        reply,
        docsUrl,
        new AppError(413, 'payload_too_large', 'Payload too large', 'The request body exceeds 1 MB.'),
      );
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendProblem(
        reply,
        docsUrl,
        new AppError(
          415,
          'unsupported_media_type',
          'Unsupported media type',
          'Send JSON with Content-Type: application/json.',
        ),
      );
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const errors = [{ path: '/', message: error.message }];
      return sendProblem(
        reply,
        docsUrl,
        new AppError(400, 'validation_error', 'Validation failed', error.message, { errors }),
      );
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(
      reply,
      docsUrl,
      new AppError(
        500,
        'internal_error',
        'Internal error',
        'An unexpected error occurred. It has been logged.',
      ),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      docsUrl,
      new AppError(404, 'not_found', 'Not found', `No route ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
}

/**
 * Fastify's router answers a path it cannot decode (`/v1/invoices/%c0%ae`) or a parameter over its length limit
 * with its own JSON; `frameworkErrors` routes both through the problem format (`Fastify({ frameworkErrors })`).
 */
export function frameworkProblems(docsUrl: string) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
    const message =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path segment is longer than any id (100 characters).'
        : 'The path is not valid percent-encoded UTF-8.';
    void sendProblem(
      reply,
      docsUrl,
      new AppError(400, 'validation_error', 'Validation failed', message, {
        errors: [{ path: '/params', message }],
      }),
    );
  };
}

/**
 * Requests Node's HTTP parser refuses (a NUL or line break in a header, a malformed request line) never reach
 * Fastify; they get a problem+json 400 written straight to the socket instead of Fastify's plain JSON.
 */
export function clientProblems(docsUrl: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, title, detail]: [number, ProblemCode, string, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'headers_too_large',
            'Request header fields too large',
            'The request headers exceed the size the server accepts.',
          ]
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'request_timeout', 'Request timeout', 'The request was not received in time.']
          : [
              400,
              'validation_error',
              'Validation failed',
              'The HTTP request is malformed (request line or headers).',
            ];
    const problem = problemBody(
      docsUrl,
      new AppError(
        status,
        code,
        title,
        detail,
        status === 400 ? { errors: [{ path: '/headers', message: detail }] } : {},
      ),
    );
    const body = JSON.stringify(problem);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${title}\r\nConnection: close\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
