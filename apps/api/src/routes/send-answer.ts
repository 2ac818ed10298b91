import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkIdempotencyKey } from '@cfdi/services';
import type { Answer } from '../operations/idempotent';
import { withTraceId } from '../plugins/problem';

/** The Idempotency-Key header of an IK route, or a 400 naming `/headers/idempotency-key`. */
export const idempotencyKeyOf = (request: FastifyRequest) =>
  checkIdempotencyKey(request.headers['idempotency-key'] as string | undefined);

/** Sends an operation's answer; a stored problem replayed under its key goes out as problem+json like the first one. */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.replayed) reply.header('idempotency-replayed', 'true');
  if (answer.status >= 400)
    return reply
      .code(answer.status)
      .type('application/problem+json')
      .serializer(JSON.stringify)
      .send(withTraceId(answer.body as object));
  return reply.code(answer.status).send(answer.body);
}
