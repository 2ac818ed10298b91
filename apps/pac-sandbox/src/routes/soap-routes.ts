import { FINKOK_SERVICES, NOT_PROCESSED_HEADER, type FinkokOperation, type FinkokService } from '@cfdi/pac';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultRegistry } from '../faults/fault-registry';
import { addOperation, editOperation, getOperation } from '../soap/registration-operations';
import {
  cancelSignatureOperation,
  getReceiptOperation,
  getSatStatusOperation,
  retentionCancelSignatureOperation,
} from '../soap/cancel-operations';
import type { OperationContext, OperationHandler } from '../soap/context';
import { soapFault } from '../soap/envelopes';
import { readSoapCall } from '../soap/read-request';
import {
  queryPendingOperation,
  retentionStampedOperation,
  retentionStampOperation,
  stampedOperation,
  stampOperation,
} from '../soap/stamp-operations';

const HANDLERS: Record<FinkokOperation, OperationHandler> = {
  stamp: stampOperation,
  stamped: stampedOperation,
  query_pending: queryPendingOperation,
  cancel_signature: cancelSignatureOperation,
  get_sat_status: getSatStatusOperation,
  get_receipt: getReceiptOperation,
  add: addOperation,
  edit: editOperation,
  get: getOperation,
  retention_stamp: retentionStampOperation,
  retention_stamped: retentionStampedOperation,
  retention_cancel_signature: retentionCancelSignatureOperation,
};

const XML = 'text/xml; charset=utf-8';

/** Finkok-compatible SOAP 1.1 endpoints: one POST route per service, dispatched on the body's operation. */
export function registerSoapRoutes(app: FastifyInstance, ctx: OperationContext, faults: FaultRegistry): void {
  app.addContentTypeParser(
    ['text/xml', 'application/xml', 'application/soap+xml'],
    { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 },
    (_req, body, done) => done(null, body),
  );
  for (const service of Object.keys(FINKOK_SERVICES) as FinkokService[]) {
    app.post(FINKOK_SERVICES[service].path, (request, reply) => handle(service, request, reply, ctx, faults));
  }
}

async function handle(
  service: FinkokService,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: OperationContext,
  faults: FaultRegistry,
): Promise<FastifyReply | void> {
  const soapAction = request.headers.soapaction;
  const call = readSoapCall(
    service,
    typeof request.body === 'string' ? request.body : '',
    Array.isArray(soapAction) ? soapAction[0] : soapAction,
  );
  if (!call.ok) return reply.code(500).type(XML).send(soapFault('senv:Client', call.detail));
  const fault = faults.take(call.operation);
  if (fault) request.log.info({ fault: fault.kind, operation: call.operation }, 'sandbox fault applied');

  switch (fault?.kind) {
    case 'latency':
      await sleep(fault.params.ms ?? 1000);
      break;
    case 'hang':
      // Never answer: the socket stays open until the client gives up (or the app closes).
      reply.hijack();
      return;
    case 'reset':
      reply.hijack();
      request.raw.socket.resetAndDestroy();
      return;
    case 'http_500':
      return reply
        .code(500)
        .header(NOT_PROCESSED_HEADER, 'true')
        .type(XML)
        .send(soapFault('senv:Server', 'sandbox fault: failed before processing'));
  }

  let body: string;
  try {
    body = await HANDLERS[call.operation](ctx, call.params, fault);
  } catch (err) {
    // Unknown whether work was stored (e.g. the database failed mid-way): a Server fault, which
    // clients must treat as ambiguous for writes.
    request.log.error({ err, operation: call.operation }, 'sandbox operation failed');
    return reply.code(500).type(XML).send(soapFault('senv:Server', 'internal error'));
  }
  if (fault?.kind === 'process_then_reset') {
    // The work is done and stored; the client never learns it (the ambiguous case).
    reply.hijack();
    request.raw.socket.resetAndDestroy();
    return;
  }
  if (fault?.kind === 'http_500_after_processing') {
    return reply.code(500).type(XML).send(soapFault('senv:Server', 'sandbox fault: failed after processing'));
  }
  return reply.code(200).type(XML).send(body);
}
